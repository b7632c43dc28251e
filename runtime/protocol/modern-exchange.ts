import type { IncomingHttpHeaders } from "node:http";
import { isRecord } from "../base/own-property.js";
import { invalidParams, rpcErrorOf } from "../base/protocol-error.js";
import { asksForms, isInputRequired } from "../tools/confirmation.js";
import type { InputRounds, ServerIdentity } from "../tools/tool-runtime-contract.js";
import { META, MODERN_VERSIONS, type ModernRequest } from "./modern-protocol.js";

/** What a server offers the 2026-07-28 exchange: its identity, its tools and how to call one. */
export interface ModernHost {
  identity: ServerIdentity;
  /** The `tools/list` entries; the list does not change while the server runs. */
  listTools(): Promise<readonly unknown[]>;
  /**
   * Calls a tool; rejects with a JSON-RPC error (`code`, `message`, `data`) for an unknown tool or bad params. `rounds`
   * is what the request brings for a multi round-trip: whether its client can be asked, and a retry's answers.
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    headers: IncomingHttpHeaders,
    rounds: InputRounds,
  ): Promise<Record<string, unknown>>;
}

/** The answer to one request: the HTTP status and the JSON-RPC response. */
export interface ModernAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** How long a client may reuse `server/discover` and `tools/list` (SEP-2549): the tools change only on redeploy. */
const LIST_TTL_MS = 300_000;

/**
 * Answers one checked 2026-07-28 request: `server/discover`, `tools/list` and `tools/call`. Every other method (the
 * removed `initialize`, `ping` and `logging/setLevel` among them) is 404 with "Method not found". Results carry
 * `resultType` and the server's identity in `_meta`; an error a tool call raises stays in-band (HTTP 200).
 */
export async function answerModern(host: ModernHost, request: ModernRequest, headers: IncomingHttpHeaders): Promise<ModernAnswer> {
  const { id, method, params } = request;
  try {
    const result = await resultOf(host, method, params, headers);
    if (result === undefined) return { status: 404, body: errorBody(id, -32601, `Method not found: ${method}`) };
    return { status: 200, body: { jsonrpc: "2.0", id, result: stamped(host.identity, result) } };
  } catch (error) {
    const { code, message, data } = rpcErrorOf(error);
    return { status: 200, body: errorBody(id, code, message, data) };
  }
}

/** The result of a method this exchange serves, or undefined for any other method. */
async function resultOf(
  host: ModernHost,
  method: string,
  params: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): Promise<Record<string, unknown> | undefined> {
  switch (method) {
    case "server/discover":
      return {
        supportedVersions: [...MODERN_VERSIONS],
        capabilities: { tools: { listChanged: false } },
        ...(host.identity.instructions ? { instructions: host.identity.instructions } : {}),
        ttlMs: LIST_TTL_MS,
        cacheScope: "public",
      };
    case "tools/list":
      if (params.cursor !== undefined && typeof params.cursor !== "string") throw invalidParams("cursor must be a string");
      return { tools: await host.listTools(), ttlMs: LIST_TTL_MS, cacheScope: "public" };
    case "tools/call": {
      if (typeof params.name !== "string") throw invalidParams("tools/call needs the name of a tool");
      if (params.arguments !== undefined && !isRecord(params.arguments)) throw invalidParams("tools/call arguments must be an object");
      return host.callTool(params.name, params.arguments ?? {}, headers, inputRounds(params));
    }
    default:
      return undefined;
  }
}

/** A request's multi round-trip context: whether its client declared elicitation forms, and a retry's answers. */
function inputRounds(params: Record<string, unknown>): InputRounds {
  const { inputResponses, requestState } = params;
  if (inputResponses !== undefined && !isRecord(inputResponses)) throw invalidParams("inputResponses must be an object");
  if (requestState !== undefined && typeof requestState !== "string") throw invalidParams("requestState must be a string");
  const meta = isRecord(params._meta) ? params._meta : {};
  const capabilities = meta[META.clientCapabilities];
  return {
    canElicit: isRecord(capabilities) && asksForms(capabilities.elicitation),
    ...(inputResponses ? { responses: inputResponses } : {}),
    ...(requestState !== undefined ? { state: requestState } : {}),
  };
}

/**
 * A result with its `resultType` (`complete`, or `input_required` where the server asks the client first, which then
 * carries only its requests and state) and the server's identity in its `_meta`.
 */
function stamped(identity: ServerIdentity, result: Record<string, unknown>): Record<string, unknown> {
  const { name, version, title } = identity;
  const meta = isRecord(result._meta) ? result._meta : {};
  const serverInfo = { [META.serverInfo]: { name, version, ...(title ? { title } : {}) } };
  if (isInputRequired(result)) {
    const { inputRequests, requestState } = result;
    return { resultType: "input_required", inputRequests, requestState, _meta: { ...meta, ...serverInfo } };
  }
  return { ...result, resultType: "complete", _meta: { ...meta, ...serverInfo } };
}

function errorBody(id: string | number | null, code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}

/** The JSON-RPC error response of a refused message. */
export function rejectionBody(id: string | number | null, error: { code: number; message: string; data?: unknown }) {
  return errorBody(id, error.code, error.message, error.data);
}
