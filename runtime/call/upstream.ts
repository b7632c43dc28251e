import { createHash } from "node:crypto";
import { requestScope } from "../base/request-scope.js";
import type { UpstreamResponse } from "../result/response-content.js";
import { Cancellation, type Exchange, fetchSender, nodeSender } from "./http-exchange.js";
import type { UpstreamRequest } from "./upstream-request.js";

/** How a successful response body is read. */
export type ReadMode = "buffer" | "text" | "digest" | "blob";

/** What came back from the upstream API; `fetchUpstream` never throws. */
export type UpstreamOutcome =
  | UpstreamResponse
  | { kind: "unreachable"; detail: string }
  | { kind: "timeout"; timeoutMs: number }
  | { kind: "too-large"; limitBytes: number }
  | { kind: "redirect"; detail: string };

/** Limits and credentials of one upstream call. */
export interface UpstreamOptions {
  /** Sent only to the configured upstream origin, never across a redirect to another origin. */
  credentials: Record<string, string>;
  timeoutMs: number;
  maxResponseBytes: number;
  /**
   * `buffer` (JSON: over the cap is an error), `text` (cut at the cap), `digest` (hashed, never held), `blob` (hashed;
   * held while under the cap, else dropped and marked truncated). @default "buffer"
   */
  readMode?: ReadMode;
  maxRedirects?: number;
  fetch?: typeof fetch;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Error bodies are read for their message only. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * Sends the request, follows redirects by hand (dropping credentials off-origin), and reads a bounded body. Traced
 * (telemetry on), the call is a child span of its MCP request's, and its `traceparent` goes upstream.
 */
export async function fetchUpstream(request: UpstreamRequest, options: UpstreamOptions): Promise<UpstreamOutcome> {
  const trace = requestScope().trace?.upstream(request.method, request.url);
  if (!trace) return exchangeUpstream(request, options);
  const outcome = await exchangeUpstream({ ...request, headers: { ...request.headers, ...trace.headers } }, options);
  trace.end(outcome.kind === "response" ? outcome.status : undefined, outcome.kind === "response" ? undefined : outcome.kind);
  return outcome;
}

async function exchangeUpstream(request: UpstreamRequest, options: UpstreamOptions): Promise<UpstreamOutcome> {
  const send = options.fetch ? fetchSender(options.fetch) : nodeSender;
  // A timer cleared on return, pulling a plain cancellation: no AbortSignal on every call of a busy server.
  const cancel = new Cancellation();
  const timer = setTimeout(() => cancel.cancel(), options.timeoutMs).unref();
  const origin = request.url.origin;
  let url = request.url;
  let method = request.method;
  let body = request.body;
  try {
    for (let hop = 0; ; hop++) {
      const sameOrigin = url.origin === origin;
      const headers = sameOrigin ? withCredentials(request.headers, options.credentials) : withoutCookies(request.headers);
      if (body === undefined) delete headers["content-type"];
      const response = await send(url, { method, headers, body, cancel });
      const location = response.header("location");
      if (!REDIRECT_STATUSES.has(response.status) || location === null) {
        const ok = response.status >= 200 && response.status <= 299;
        return ok
          ? await readBody(response, options.maxResponseBytes, options.readMode ?? "buffer")
          : await readBody(response, ERROR_BODY_BYTES, "text");
      }
      await response.discard();
      if (hop >= (options.maxRedirects ?? 5)) return { kind: "redirect", detail: `more than ${options.maxRedirects ?? 5} redirects` };
      const next = new URL(location, url);
      if (next.protocol !== "http:" && next.protocol !== "https:")
        return { kind: "redirect", detail: `redirect to ${next.protocol} refused` };
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
      }
      url = next;
    }
  } catch (error) {
    if (cancel.cancelled) return { kind: "timeout", timeoutMs: options.timeoutMs };
    return { kind: "unreachable", detail: describeNetworkError(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Request headers plus credentials; cookies from both are joined, not replaced. */
function withCredentials(headers: Record<string, string>, credentials: Record<string, string>): Record<string, string> {
  const merged = { ...headers, ...credentials };
  if (headers.cookie && credentials.cookie) merged.cookie = `${headers.cookie}; ${credentials.cookie}`;
  return merged;
}

function withoutCookies(headers: Record<string, string>): Record<string, string> {
  const { cookie: _, ...rest } = headers;
  return rest;
}

async function readBody(response: Exchange, limit: number, mode: ReadMode): Promise<UpstreamOutcome> {
  const contentType = response.header("content-type") ?? "";
  // A compressed body has no length here: what it inflates to is counted as it is read.
  if (mode === "buffer" && response.length !== undefined && response.length > limit) {
    await response.discard();
    return { kind: "too-large", limitBytes: limit };
  }
  const retryAfter = response.status === 429 || response.status === 503 ? response.header("retry-after")?.trim().slice(0, 64) : undefined;
  const chunks: Buffer[] = [];
  const hash = mode === "digest" || mode === "blob" ? createHash("sha256") : undefined;
  let size = 0;
  let truncated = false;
  for await (const chunk of response.body) {
    if (!(chunk instanceof Uint8Array)) throw new TypeError("the response body is not a byte stream");
    size += chunk.byteLength;
    if (hash) {
      hash.update(chunk);
      if (mode === "blob" && !truncated) {
        if (size > limit) {
          chunks.length = 0;
          truncated = true;
        } else chunks.push(bytes(chunk));
      }
      continue;
    }
    if (size > limit) {
      // Leaving the loop cancels the stream, so the rest of the body is never read.
      if (mode === "buffer") return { kind: "too-large", limitBytes: limit };
      chunks.push(bytes(chunk).subarray(0, chunk.byteLength - (size - limit)));
      truncated = true;
      break;
    }
    chunks.push(bytes(chunk));
  }
  const sha256 = hash?.digest("hex");
  return {
    kind: "response",
    status: response.status,
    contentType,
    body: Buffer.concat(chunks),
    truncated,
    size,
    ...(sha256 ? { sha256 } : {}),
    ...(retryAfter ? { retryAfter } : {}),
  };
}

/** A chunk as a Buffer, without copying one that already is. */
function bytes(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { cause } = error;
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
  return code ? `${error.message} (${code})` : error.message;
}
