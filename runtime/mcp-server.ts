import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type Tool as ListedTool, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { checkedCallParams, LooseCallToolRequestSchema } from "./call-request.js";
import { type CallContext, executeTool, type UpstreamSettings } from "./call-tool.js";
import { type AuthDefinition, CredentialStore } from "./credentials.js";
import type { Logger } from "./logger.js";
import { setOwn } from "./own-property.js";
import { invalidParams } from "./protocol-error.js";
import type { ToolDefinition } from "./tool.js";
import { listedOutputSchema, ValidatorCache } from "./validation.js";

/** Identity the server reports in `initialize`. */
export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
}

/** Tools, compiled validators and upstream settings, built once and shared by every request. */
export interface ToolRuntime {
  identity: ServerIdentity;
  upstream: UpstreamSettings;
  log: Logger;
  auth: AuthDefinition;
  credentials: CredentialStore;
  tools: ReadonlyMap<string, ToolDefinition>;
  /** Validators compiled once per tool (all at start-up for small servers, else on first use and in idle time). */
  validators: ValidatorCache;
  /** The `tools/list` answer, computed once. */
  listed: ListedTool[];
}

/** The caller's Authorization and the headers the passthrough allow-list names, from one request's headers. */
export function callerFromHeaders(headers: Record<string, string | string[] | undefined>, allowed: readonly string[]): CallContext {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const passed: Record<string, string> = {};
  for (const name of allowed) {
    const value = first(name.toLowerCase());
    if (value !== undefined) setOwn(passed, name.toLowerCase(), value);
  }
  const authorization = first("authorization");
  return { ...(authorization ? { authorization } : {}), ...(Object.keys(passed).length > 0 ? { headers: passed } : {}) };
}

/** The SDK validator (used only for elicitation, which these servers never send), built once for all requests. */
const SHARED_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/** Servers with up to this many tools compile every validator at start-up; larger ones on first use and when idle. */
const EAGER_COMPILE_LIMIT = 100;

/** Without a generated auth definition: pass the caller's Authorization through, nothing else. */
const DEFAULT_AUTH: AuthDefinition = { schemes: {}, passthrough: { authorization: true, headers: [] } };

/** Compiles validators and the `tools/list` answer once; fails fast on duplicate names or bad schemas. */
export function createToolRuntime(options: {
  identity: ServerIdentity;
  tools: readonly ToolDefinition[];
  upstream: UpstreamSettings;
  log: Logger;
  /** Security schemes and passthrough policy. @default caller's Authorization passed through, no schemes */
  auth?: AuthDefinition;
  /** Where server-held credentials are read from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** False when the upstream URL came from the document alone, not from the operator: caller credentials stay home. @default true */
  forwardCaller?: boolean;
}): ToolRuntime {
  const auth = options.auth ?? DEFAULT_AUTH;
  const credentials = new CredentialStore(auth, options.env ?? process.env, {
    timeoutMs: options.upstream.timeoutMs,
    ...(options.upstream.fetch ? { fetch: options.upstream.fetch } : {}),
    ...(options.forwardCaller === false ? { forwardCaller: false } : {}),
  });
  const tools = new Map<string, ToolDefinition>();
  for (const tool of options.tools) {
    if (tools.has(tool.name)) throw new Error(`duplicate tool name ${tool.name}`);
    tools.set(tool.name, tool);
  }
  const outputs = new Map(options.tools.map((tool) => [tool.name, listedOutputSchema(tool)]));
  const listed = options.tools.map((tool) => {
    const { name, title, description, inputSchema, annotations, _meta } = tool;
    const outputSchema = outputs.get(name);
    return {
      name,
      title,
      description,
      inputSchema: inputSchema as ListedTool["inputSchema"],
      ...(outputSchema ? { outputSchema: outputSchema as ListedTool["outputSchema"] } : {}),
      annotations,
      _meta,
    };
  });
  const { identity, upstream, log } = options;
  const validators = new ValidatorCache(tools, outputs);
  if (tools.size <= EAGER_COMPILE_LIMIT) validators.compileAll();
  return { identity, upstream, log, auth, credentials, tools, validators, listed };
}

/**
 * An SDK low-level `Server` advertising tools only. Each call takes the caller's Authorization and allow-listed
 * headers from its own HTTP request; `fallback` serves transports without one (stdio).
 */
export function createMcpServer(runtime: ToolRuntime, fallback: CallContext = {}): Server {
  const { identity } = runtime;
  const server = new Server(
    { name: identity.name, version: identity.version, ...(identity.title ? { title: identity.title } : {}) },
    {
      capabilities: { tools: { listChanged: false } },
      ...(identity.instructions ? { instructions: identity.instructions } : {}),
      // Without this, every Server (one per stateless request) builds its own Ajv instance.
      jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: runtime.listed }));
  server.setRequestHandler(LooseCallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = checkedCallParams(request);
    const tool = runtime.tools.get(name);
    const validators = runtime.validators.get(name);
    if (!tool || !validators) throw invalidParams(`Unknown tool: ${name}`);
    const headers = extra.requestInfo?.headers;
    const context = headers ? callerFromHeaders(headers, runtime.auth.passthrough.headers) : fallback;
    return executeTool(tool, validators, args ?? {}, context, runtime);
  });
  return server;
}
