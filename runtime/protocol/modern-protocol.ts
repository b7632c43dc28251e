import type { IncomingHttpHeaders } from "node:http";
import { isRecord } from "../base/own-property.js";

/** Protocol revisions of the stateless era (no `initialize`, no sessions) this runtime serves, newest first. */
export const MODERN_VERSIONS: readonly string[] = ["2026-07-28"];

/** The first revision of the stateless era. */
const FIRST_MODERN_VERSION = "2026-07-28";

/** The reserved `_meta` keys of a 2026-07-28 request envelope and result. */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** JSON-RPC error codes of the 2026-07-28 revision. */
export const MODERN_ERRORS = { headerMismatch: -32020, unsupportedVersion: -32022 } as const;

/** A JSON-RPC error with the HTTP status it is sent with. */
export interface Rejection {
  status: number;
  error: { code: number; message: string; data?: unknown };
}

/** A 2026-07-28 request that passed the envelope and header checks. */
export interface ModernRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

/** Where one POSTed message goes: the 2025 era (the SDK or the fast path), the 2026 era, or a refusal. */
export type Route =
  | { era: "legacy" }
  | { era: "modern"; request: ModernRequest }
  | { era: "modern-notification" }
  | { era: "rejected"; id: string | number | null; rejection: Rejection };

/** Body fields each method's `Mcp-Name` header mirrors (SEP-2243). */
const NAME_SOURCES: Readonly<Record<string, string>> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/**
 * Whether a version string belongs to the stateless era: a revision date (`YYYY-MM-DD`, which orders as text) from the
 * first stateless one on. Anything else (`zzz`) is no revision at all and goes to the 2025 era, whose transport
 * refuses a version it does not know with 400.
 */
function namesModernEra(version: string | undefined): boolean {
  return version !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= FIRST_MODERN_VERSION;
}

/** A header's single value with the optional whitespace around it removed (RFC 9110 §5.5); undefined when absent. */
function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value.join(",") : value;
  return text?.replace(/^[ \t]+|[ \t]+$/g, "");
}

function isRequestId(value: unknown): value is string | number {
  return typeof value === "string" || Number.isSafeInteger(value);
}

function reject(id: string | number | null, status: number, code: number, message: string, data?: unknown): Route {
  return { era: "rejected", id, rejection: { status, error: { code, message, ...(data !== undefined ? { data } : {}) } } };
}

/** The first problem of a request envelope (`params._meta`), or undefined when it is valid. */
function envelopeProblem(meta: Record<string, unknown>): string | undefined {
  if (typeof meta[META.protocolVersion] !== "string") return `${META.protocolVersion} must be a string`;
  if (!isRecord(meta[META.clientCapabilities])) return `${META.clientCapabilities} is required and must be an object`;
  const info = meta[META.clientInfo];
  if (info !== undefined && !(isRecord(info) && typeof info.name === "string" && typeof info.version === "string")) {
    return `${META.clientInfo} must be an object with a name and a version`;
  }
  return undefined;
}

/**
 * A `=?base64?…?=` header value decoded (SEP-2243), any other value as it is; undefined when the sentinel's Base64 is
 * malformed (wrong alphabet or padding).
 */
export function decodeHeaderValue(value: string): string | undefined {
  const encoded = /^=\?base64\?(.*)\?=$/i.exec(value)?.[1];
  if (encoded === undefined) return value;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return undefined;
  return Buffer.from(encoded, "base64").toString("utf8");
}

/**
 * Routes one parsed POST body (or, with `transport` "stdio", one line of a stdio stream, which has no headers). A message whose `_meta` claims a protocol version, or that is sent with a 2026-era
 * `MCP-Protocol-Version` header, is a 2026-07-28 message: its envelope and the standard headers (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`) are checked against the body, and a mismatch is refused with 400. Everything else,
 * `initialize` included, belongs to the 2025 era and is answered as before.
 */
export function routeMessage(message: unknown, headers: IncomingHttpHeaders, transport: "http" | "stdio" = "http"): Route {
  const versionHeader = headerValue(headers, "mcp-protocol-version");
  const methodHeader = headerValue(headers, "mcp-method");
  if (Array.isArray(message)) {
    const modern = message.some((element) => isRecord(element) && isRecord(element.params) && hasClaim(element.params));
    return modern ? reject(null, 400, -32600, "Invalid Request: 2026-07-28 messages cannot be sent in a batch") : { era: "legacy" };
  }
  if (!isRecord(message) || message.jsonrpc !== "2.0" || typeof message.method !== "string") return { era: "legacy" };
  const { method } = message;
  const params = message.params === undefined ? {} : message.params;
  const id = isRequestId(message.id) ? message.id : null;
  const claims = isRecord(params) && hasClaim(params);
  if (!claims && !namesModernEra(versionHeader)) return { era: "legacy" };
  if (method === "initialize" && !claims) {
    return reject(
      id,
      400,
      MODERN_ERRORS.headerMismatch,
      "Header mismatch: initialize belongs to the 2025 protocol, not to the one in MCP-Protocol-Version",
    );
  }
  if (!isRecord(params)) return reject(id, 400, -32602, "Invalid params: params must be an object");
  if (!("id" in message)) return routeNotification(params, versionHeader, methodHeader, method);
  const meta = params._meta;
  if (!isRecord(meta))
    return reject(id, 400, -32602, `Invalid params: _meta with ${META.protocolVersion} and ${META.clientCapabilities} is required`);
  const problem = envelopeProblem(meta);
  if (problem) return reject(id, 400, -32602, `Invalid params: ${problem}`);
  const claimed = String(meta[META.protocolVersion]);
  const mismatch = headerMismatch(id, versionHeader, claimed, methodHeader, method);
  if (mismatch) return mismatch;
  if (!MODERN_VERSIONS.includes(claimed)) {
    return reject(id, 400, MODERN_ERRORS.unsupportedVersion, `Unsupported protocol version: ${claimed}`, {
      supported: [...MODERN_VERSIONS],
      requested: claimed,
    });
  }
  if (id === null) return reject(null, 400, -32600, "Invalid Request: the id must be a string or an integer");
  // Over stdio there are no headers: the envelope alone says what the message is.
  const headerProblem = transport === "http" ? standardHeaderProblem(method, params, headers, versionHeader, methodHeader) : undefined;
  if (headerProblem) return reject(id, 400, MODERN_ERRORS.headerMismatch, `Header mismatch: ${headerProblem}`);
  return { era: "modern", request: { id, method, params } };
}

/** A 2026-07-28 notification: accepted (and dropped) unless its claim or headers contradict the body. */
function routeNotification(
  params: Record<string, unknown>,
  versionHeader: string | undefined,
  methodHeader: string | undefined,
  method: string,
): Route {
  const claimed = hasClaim(params) && isRecord(params._meta) ? params._meta[META.protocolVersion] : versionHeader;
  if (typeof claimed !== "string") return reject(null, 400, -32602, `Invalid params: ${META.protocolVersion} must be a string`);
  return headerMismatch(null, versionHeader, claimed, methodHeader, method) ?? { era: "modern-notification" };
}

/** A refusal when `MCP-Protocol-Version` or `Mcp-Method` contradicts the body; undefined when they agree or are absent. */
function headerMismatch(
  id: string | number | null,
  versionHeader: string | undefined,
  claimed: string,
  methodHeader: string | undefined,
  method: string,
): Route | undefined {
  const code = MODERN_ERRORS.headerMismatch;
  if (versionHeader !== undefined && versionHeader !== claimed) {
    return reject(id, 400, code, `Header mismatch: MCP-Protocol-Version is ${versionHeader} but _meta names ${claimed}`);
  }
  if (methodHeader !== undefined && methodHeader !== method) {
    return reject(id, 400, code, `Header mismatch: Mcp-Method is ${methodHeader} but the body's method is ${method}`);
  }
  return undefined;
}

/** Whether params carry the envelope's protocol-version claim. */
function hasClaim(params: Record<string, unknown>): boolean {
  return isRecord(params._meta) && Object.hasOwn(params._meta, META.protocolVersion);
}

/** What is wrong with the standard request headers of a 2026-07-28 request, if anything. */
function standardHeaderProblem(
  method: string,
  params: Record<string, unknown>,
  headers: IncomingHttpHeaders,
  versionHeader: string | undefined,
  methodHeader: string | undefined,
): string | undefined {
  if (versionHeader === undefined) return "the MCP-Protocol-Version header is required";
  if (methodHeader === undefined) return "the Mcp-Method header is required";
  const field = Object.hasOwn(NAME_SOURCES, method) ? NAME_SOURCES[method] : undefined;
  const bodyValue = field === undefined ? undefined : params[field];
  if (typeof bodyValue !== "string") return undefined;
  const nameHeader = headerValue(headers, "mcp-name");
  if (nameHeader === undefined) return `the Mcp-Name header is required (params.${field} is ${JSON.stringify(bodyValue)})`;
  const decoded = decodeHeaderValue(nameHeader);
  if (decoded === undefined) return "the Mcp-Name header has malformed Base64";
  if (decoded !== bodyValue) return `Mcp-Name is ${JSON.stringify(decoded)} but params.${field} is ${JSON.stringify(bodyValue)}`;
  return undefined;
}
