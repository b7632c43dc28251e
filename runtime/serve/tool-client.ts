import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Logger, silentLogger } from "../base/logger.js";
import { isRecord } from "../base/own-property.js";
import type { Tool, ToolDefinition } from "../base/tool.js";
import type { AuthDefinition } from "../call/credentials.js";
import { decodeJson } from "../result/result.js";
import { executeTool } from "../tools/call-tool.js";
import { createToolRuntime, type ServerIdentity } from "../tools/tool-runtime.js";
import type { UpstreamDefaults } from "./env.js";

/** What a generated registry gives its typed client. */
export interface ClientRegistry {
  identity: ServerIdentity;
  tools: readonly ToolDefinition[];
  upstream: UpstreamDefaults;
  auth: AuthDefinition;
}

/** Where a typed client sends its calls and with which credentials. */
export interface ClientOptions {
  /** The API's base URL. @default the document's server (or the config's `baseUrl`) */
  baseUrl?: string | URL;
  /** The `Authorization` header each call sends (as a caller of the MCP server would). */
  authorization?: string;
  /** Where server-held credentials are read from (their variables are named in the generated README). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** @default 30000 */
  timeoutMs?: number;
  /** @default 10485760 */
  maxResponseBytes?: number;
  /** @default the global `fetch` */
  fetch?: typeof fetch;
  /** @default silent */
  log?: Logger;
}

/** A call that ended as an error result: the message the MCP tool would have returned, and that result. */
export class ToolCallError extends Error {
  override name = "ToolCallError";
  constructor(
    readonly tool: string,
    readonly result: CallToolResult,
  ) {
    const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
    super(text.includes(tool) ? text : `${tool}: ${text}`);
  }
}

/**
 * Calls a registry's tools as typed functions, through exactly the code the MCP server runs for them (argument
 * validation, request building, credentials, result shaping and checking): resolves with the structured result, and
 * rejects with a ToolCallError where the tool would answer `isError`.
 */
export function toolCaller(registry: ClientRegistry, options: ClientOptions = {}) {
  const base = options.baseUrl ?? registry.upstream.defaultBaseUrl;
  if (base === undefined)
    throw new Error(`${registry.identity.name}: no base URL: pass baseUrl (${registry.upstream.hint ?? "the document names none"})`);
  const runtime = createToolRuntime({
    identity: registry.identity,
    tools: registry.tools,
    auth: registry.auth,
    log: options.log ?? silentLogger,
    ...(options.env ? { env: options.env } : {}),
    // The script calling is its author's own: no model stands between, and nobody to ask.
    confirmBestEffort: true,
    upstream: {
      baseUrl: new URL(base),
      timeoutMs: options.timeoutMs ?? 30_000,
      maxResponseBytes: options.maxResponseBytes ?? 10 * 1024 * 1024,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
  const caller = options.authorization ? { authorization: options.authorization } : {};
  return async <Args, Result>(tool: Tool<Args, Result>, args: Args): Promise<Result> => {
    if (!isRecord(args)) throw new TypeError(`${tool.name}: arguments must be an object`);
    const validators = await runtime.validators.forTool(tool.name);
    if (!validators) throw new Error(`${tool.name} is not a tool of ${registry.identity.name}`);
    const result = await executeTool({ runtime, tool, validators, args, caller });
    if (result.isError) throw new ToolCallError(tool.name, result);
    // The structured content was checked against the tool's output schema, which its Result type describes; a result
    // the schema refused (output.validate: warn) comes as JSON text only.
    return (result.structuredContent ?? textValue(result)) as Result;
  };
}

/** A result's first text part, parsed when it is JSON. */
function textValue(result: CallToolResult): unknown {
  const first = result.content[0];
  if (first?.type !== "text") return undefined;
  const decoded = decodeJson(first.text);
  return decoded.ok ? decoded.value : first.text;
}
