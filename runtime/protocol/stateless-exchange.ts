import type { IncomingHttpHeaders } from "node:http";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../base/own-property.js";
import { rpcErrorOf } from "../base/protocol-error.js";
import { requestScope } from "../base/request-scope.js";
import { callerFromHeaders } from "../call/caller.js";
import { callByName } from "../tools/call-by-name.js";
import type { CallingClient, ToolRuntime } from "../tools/tool-runtime-contract.js";
import { listedForCaller } from "../tools/tool-scopes.js";
import { FAST_PATH_VERSIONS } from "./protocol-versions.js";

/** A JSON-RPC request the fast path answers: checked as strictly as the SDK's own schemas would check it. */
interface FastRequest {
  id: string | number;
  method: "initialize" | "tools/call" | "tools/list" | "ping";
  params: Record<string, unknown>;
}

/** The serialized answer of a request: JSON text of a JSON-RPC response. */
export type ExchangeAnswer = Promise<string>;

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const CALL_KEYS = new Set(["name", "arguments", "_meta"]);
const LIST_KEYS = new Set(["cursor", "_meta"]);
const INITIALIZE_KEYS = new Set(["protocolVersion", "capabilities", "clientInfo", "_meta"]);
const CLIENT_INFO_KEYS = new Set(["name", "version", "title", "websiteUrl", "description"]);
const CLIENT_CAPABILITIES = new Set(["roots", "sampling", "elicitation", "experimental", "tasks"]);

/** A string or an integer id, as the SDK's `RequestIdSchema` accepts. */
function isRequestId(value: unknown): value is string | number {
  return typeof value === "string" || Number.isSafeInteger(value);
}

/** `_meta` as the SDK accepts it: absent, or an object whose `progressToken`, if any, is a string or an integer. */
function isPlainMeta(value: unknown): boolean {
  return value === undefined || (isRecord(value) && (value.progressToken === undefined || isRequestId(value.progressToken)));
}

/** Only the named keys, each own. */
function hasOnlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key) || !Object.hasOwn(value, key)) return false;
  return true;
}

/**
 * The request when it is one the fast path answers exactly as the SDK would: a single `tools/call` (name, object
 * arguments, plain `_meta`), `tools/list`, `ping` or plain `initialize`. Anything else (batches, odd params,
 * task-augmented calls) returns undefined and goes to the SDK's transport, which stays the authority on edge cases.
 */
function fastRequest(message: unknown): FastRequest | undefined {
  if (!isRecord(message) || message.jsonrpc !== "2.0" || !isRequestId(message.id) || !hasOnlyKeys(message, REQUEST_KEYS)) {
    return undefined;
  }
  const { id, method } = message;
  const params = message.params ?? {};
  if (!isRecord(params) || !isPlainMeta(params._meta)) return undefined;
  if (method === "tools/call") {
    if (!hasOnlyKeys(params, CALL_KEYS) || typeof params.name !== "string") return undefined;
    if (params.arguments !== undefined && !isRecord(params.arguments)) return undefined;
    return { id, method, params };
  }
  if (method === "tools/list") {
    if (!hasOnlyKeys(params, LIST_KEYS) || (params.cursor !== undefined && typeof params.cursor !== "string")) return undefined;
    return { id, method, params };
  }
  if (method === "ping") return { id, method, params };
  if (method === "initialize" && isPlainInitialize(params)) return { id, method, params };
  return undefined;
}

/**
 * An `initialize` the SDK would accept as it is: a protocol version the fast path knows, capabilities of the kinds a
 * client declares (each an object), and a client name and version (strings, with the optional title, URL and
 * description). Anything else, or anything more, is left to the SDK.
 */
function isPlainInitialize(params: Record<string, unknown>): boolean {
  const { protocolVersion, capabilities, clientInfo } = params;
  if (!hasOnlyKeys(params, INITIALIZE_KEYS) || typeof protocolVersion !== "string" || !FAST_PATH_VERSIONS.has(protocolVersion)) {
    return false;
  }
  if (!isRecord(capabilities) || !hasOnlyKeys(capabilities, CLIENT_CAPABILITIES)) return false;
  if (!Object.values(capabilities).every(isRecord)) return false;
  const roots = capabilities.roots;
  if (isRecord(roots) && !hasOnlyKeys(roots, new Set(["listChanged"]))) return false;
  if (isRecord(roots) && roots.listChanged !== undefined && typeof roots.listChanged !== "boolean") return false;
  if (!isRecord(clientInfo) || !hasOnlyKeys(clientInfo, CLIENT_INFO_KEYS)) return false;
  return Object.values(clientInfo).every((value) => typeof value === "string") && "name" in clientInfo && "version" in clientInfo;
}

/** The `initialize` result: the requested version (one the SDK supports), tools only, the server's identity. */
function initializeResult(runtime: ToolRuntime, protocolVersion: string): string {
  const { name, version, title, instructions } = runtime.identity;
  return JSON.stringify({
    protocolVersion,
    capabilities: { tools: { listChanged: false } },
    serverInfo: { name, version, ...(title ? { title } : {}) },
    ...(instructions ? { instructions } : {}),
  });
}

/**
 * Whether a message is a single JSON-RPC notification: the stateless SDK transport accepts it with 202 and no body,
 * whatever it says (no server state outlives the request).
 */
export function isNotification(message: unknown): boolean {
  return (
    isRecord(message) &&
    message.jsonrpc === "2.0" &&
    !("id" in message) &&
    typeof message.method === "string" &&
    message.method.startsWith("notifications/") &&
    hasOnlyKeys(message, REQUEST_KEYS) &&
    (message.params === undefined || isRecord(message.params))
  );
}

/** `{"jsonrpc":"2.0","id":…,"result":…}` around a result already serialized. */
function resultText(id: string | number, result: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;
}

/** A JSON-RPC error response for a thrown error, as the SDK's `Protocol` writes it (its code when it has one). */
function errorText(id: string | number, error: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: rpcErrorOf(error) });
}

/** The `tools/list` result of a runtime, serialized once: the list never changes while the server runs. */
const listTexts = new WeakMap<ToolRuntime, string>();

function listText(runtime: ToolRuntime): string {
  // A signed-in caller sees the tools its token may call: written for it, not kept.
  if (requestScope().signedIn && !runtime.listsAllTools) return JSON.stringify({ tools: listedForCaller(runtime) });
  let text = listTexts.get(runtime);
  if (text === undefined) {
    text = JSON.stringify({ tools: runtime.listed });
    listTexts.set(runtime, text);
  }
  return text;
}

/**
 * Answers a stateless JSON exchange without an SDK server when the message is a plain `initialize`, `tools/call`,
 * `tools/list` or `ping`; undefined when the SDK must answer it. Arguments and results are validated by the tool runtime as on the
 * SDK path, and the caller's credentials come from this request's own headers.
 */
export function answerFast(runtime: ToolRuntime, message: unknown, headers: IncomingHttpHeaders): ExchangeAnswer | undefined {
  const request = fastRequest(message);
  if (!request) return undefined;
  const { id, method, params } = request;
  if (method === "ping") return Promise.resolve(resultText(id, "{}"));
  if (method === "initialize") return Promise.resolve(resultText(id, initializeResult(runtime, String(params.protocolVersion))));
  if (method === "tools/list") return Promise.resolve(resultText(id, listText(runtime)));
  const args = isRecord(params.arguments) ? params.arguments : {};
  return callNamedTool(runtime, String(params.name), args, headers).then(
    (result) => resultText(id, JSON.stringify(result)),
    (error: unknown) => errorText(id, error),
  );
}

/** Calls a listed tool by name with the caller's credentials from the request headers (see callByName). */
export function callNamedTool(
  runtime: ToolRuntime,
  name: string,
  args: Record<string, unknown>,
  headers: IncomingHttpHeaders,
  client: CallingClient = {},
): Promise<CallToolResult> {
  return callByName(runtime, name, args, callerFromHeaders(headers, runtime.auth.passthrough.headers), client);
}
