/**
 * Public entry of the oapi-mcp-gen runtime: everything generated code, the generator and the search server may import,
 * except the SDK-based server parts, which live in `oapi-mcp-gen-runtime/sdk` so that importing this loads no SDK.
 */

export { executeTool, type ToolCall } from "./call-tool.js";
export { callerFromHeaders } from "./caller.js";
export { type AuthDefinition, type CallerCredentials, CredentialStore, type SecuritySchemeDefinition } from "./credentials.js";
export { describeOperation } from "./describe-operation.js";
export { type DiscoveryData, searchableOperation, synopsis } from "./discovery.js";
export { DISCOVERY_TOOLS, discoveryToolDefinitions, type ListedDiscoveryTool, mostCautious } from "./discovery-tools.js";
export { EnvironmentError, readServerEnvironment, type ServerEnvironment, type UpstreamDefaults } from "./env.js";
export { headerRefusal, isHeaderName, isOpenApiIgnoredHeader } from "./header-policy.js";
export {
  createRequestHandler,
  guardMcpRequest,
  type HttpPolicy,
  ListenError,
  listen,
  type RunningServer,
  sendJson,
} from "./http-server.js";
export { jsonText } from "./json-text.js";
export { isLinearPattern } from "./linear-pattern.js";
export { listedInputSchema } from "./listed-input.js";
export { listedOutputSchema } from "./listed-output.js";
export { LISTING_LIMITS, type Listing, listedForm, listing, toolsListOf, toolsModeList } from "./listed-tools.js";
export { createLogger, type LogFormat, type Logger, loggerFromEnvironment, silentLogger, stderrLogger } from "./logger.js";
export { bindsLoopback, checkHost, checkOrigin, hostAllowList, isLoopbackAddress, normalizeOrigin } from "./origin.js";
export { isRecord, setOwn } from "./own-property.js";
export { defaultStyle, styleOf } from "./parameter-style.js";
export { endWithLauncher } from "./parent-watch.js";
export { portableSchema } from "./portable-schema.js";
export { invalidParams } from "./protocol-error.js";
export { isJsonMediaType } from "./response-content.js";
export { wrapStructuredContent } from "./result.js";
export { firstSentence } from "./schema-fit.js";
export { runServer, type ServeOptions, startServer, startStdioServer, type ToolSource } from "./serve.js";
export { type SuppliedValue, suppliedValues } from "./server-parameters.js";
export type { SessionLimits } from "./session-http.js";
export { closest, didYouMean, excerpt, nearest } from "./suggest.js";
export {
  type BodyBinding,
  defineTool,
  type FieldEncoding,
  type FileArgument,
  type HttpBinding,
  type JsonSchema,
  type OutputValidation,
  type ParameterBinding,
  type ParameterSource,
  type ReshapeBody,
  type Tool,
  type ToolAnnotations,
  type ToolArgs,
  type ToolDefinition,
  type ToolResult,
  type WithFiles,
} from "./tool.js";
export { type ClientOptions, type ClientRegistry, ToolCallError, toolCaller } from "./tool-client.js";
export { createToolRuntime, type ServerIdentity, type ToolRuntime } from "./tool-runtime.js";
export { buildUpstreamRequest, stripPrefix } from "./upstream-request.js";
export { parseServerArguments, type ServerCommand, serverUsage } from "./usage.js";
export { describeErrors } from "./validation.js";
export { words } from "./words.js";
