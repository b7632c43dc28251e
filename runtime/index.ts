/**
 * Public entry of the oapi-mcp-gen runtime: everything generated code, the generator and the search server may import,
 * except the SDK-based server parts, which live in `oapi-mcp-gen-runtime/sdk` so that importing this loads no SDK.
 */

export { type AuditEvent, audit, namedCaller } from "./base/audit.js";
export { EnvironmentError } from "./base/environment-error.js";
export { canonicalJson, jsonText, withEscapedMarks } from "./base/json-text.js";
export { pushTo, someOf } from "./base/lists.js";
export { createLogger, type LogFormat, type Logger, loggerFromEnvironment, silentLogger, stderrLogger } from "./base/logger.js";
export { isRecord, setOwn } from "./base/own-property.js";
export { invalidParams } from "./base/protocol-error.js";
export { canonicalHost, checkedLookup, isRefusedAddress } from "./base/public-address.js";
export { requestScope, type SignedInCaller } from "./base/request-scope.js";
export { closest, didYouMean, excerpt, nearest } from "./base/suggest.js";
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
} from "./base/tool.js";
export { words } from "./base/words.js";
export { callerFromHeaders } from "./call/caller.js";
export {
  type AuthDefinition,
  type CallerCredentials,
  CredentialStore,
  type SecuritySchemeDefinition,
  type SignInProvider,
} from "./call/credentials.js";
export { headerRefusal, headerValueProblem, isHeaderName, isOpenApiIgnoredHeader } from "./call/header-policy.js";
export { defaultStyle, styleOf } from "./call/parameter-style.js";
export { type SuppliedValue, suppliedValues } from "./call/server-parameters.js";
export { buildUpstreamRequest, stripPrefix } from "./call/upstream-request.js";
export type { CodeSettings } from "./code/code-settings.js";
export type { DiscoveryData } from "./discovery/discovery.js";
export {
  createRequestHandler,
  guardMcpRequest,
  type HttpPolicy,
  ListenError,
  listen,
  type RunningServer,
  sendJson,
} from "./http/http-server.js";
export { bindsLoopback, checkHost, checkOrigin, hostAllowList, isLoopbackAddress, normalizeOrigin } from "./http/origin.js";
export { Readiness, type ReadinessCheck } from "./http/readiness.js";
export type { SessionLimits } from "./http/session-http.js";
export { isJsonMediaType } from "./result/response-content.js";
export { wrapStructuredContent } from "./result/result.js";
export { isLinearPattern, unenforcedReason } from "./schema/linear-pattern.js";
export { listedInputSchema } from "./schema/listed-input.js";
export { listedOutputSchema } from "./schema/listed-output.js";
export { portableSchema } from "./schema/portable-schema.js";
export { firstSentence } from "./schema/schema-fit.js";
export { repeatedItems } from "./schema/unique-items.js";
export { describeErrors } from "./schema/validation.js";
export { readServerEnvironment, type ServerEnvironment, type UpstreamDefaults } from "./serve/env.js";
export { openTelemetry } from "./serve/open-telemetry.js";
export { endWithLauncher } from "./serve/parent-watch.js";
export { runServer, type ServeOptions, startServer, startStdioServer, type ToolSource } from "./serve/serve.js";
export { type ClientOptions, type ClientRegistry, ToolCallError, toolCaller } from "./serve/tool-client.js";
export { parseServerArguments, type ServerCommand, serverUsage } from "./serve/usage.js";
export { metadataUrl, SignInGuard, type SignInSettings } from "./sign-in/guard.js";
export { signInChecks } from "./sign-in/settings.js";
export { canonicalUri, isSecureUrl, readSignInEnvironment } from "./sign-in/sign-in-env.js";
export { withoutSecrets } from "./sign-in/state/database-url.js";
export { openPostgresPool, type PoolSettings, type PostgresConnection, withConnection } from "./sign-in/state/postgres-pool.js";
export { issuerName } from "./sign-in/token-verifier.js";
export type { Telemetry } from "./telemetry/index.js";
export { readTelemetryEnvironment, type TelemetryEnvironment } from "./telemetry/telemetry-env.js";
export { callByName } from "./tools/call-by-name.js";
export { executeTool, type ToolCall } from "./tools/call-tool.js";
export { describeOperation } from "./tools/describe-operation.js";
export { LISTING_LIMITS, type Listing, listedForm, listing, toolsListOf, toolsModeList } from "./tools/listed-tools.js";
export { createToolRuntime, type ServerIdentity, type ToolRuntime } from "./tools/tool-runtime.js";
export type { DiscoveryFactory, DiscoveryTools, ServedTool } from "./tools/tool-runtime-contract.js";
export { messagesOf, scopeAlternatives, scopesOf, toolCallOf } from "./tools/tool-scopes.js";
