import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { pipeline, type Transform } from "node:stream";
import { constants, createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { setOwn } from "../base/own-property.js";

/** What is sent: the upstream request's method, headers and body, and what ends it early (a timeout). */
export interface ExchangeInit {
  method: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams | FormData | Uint8Array;
  cancel: Cancellation;
}

/**
 * Ends an exchange in flight, its request or the reading of its answer: what a call's timeout pulls. A plain callback,
 * not an AbortSignal: a signal, its listeners and the stream hooks it adds cost a busy server 5 % of its time.
 */
export class Cancellation {
  cancelled = false;
  private stop: (() => void) | undefined;

  /** Runs `stop` on cancellation (at once, if it came already); a later call replaces an earlier one. */
  onCancel(stop: () => void): void {
    if (this.cancelled) stop();
    else this.stop = stop;
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.stop?.();
  }
}

/** One response as the upstream client reads it, whichever client made the request. */
export interface Exchange {
  status: number;
  /** A header's value (repeated ones joined by commas), or null. */
  header(name: string): string | null;
  /** The body's bytes, decompressed when the response says it is compressed. */
  body: AsyncIterable<Uint8Array>;
  /** How many bytes `body` will yield, when the response says so: its Content-Length, unless it is compressed. */
  length: number | undefined;
  /** Stops reading: the rest of the body is dropped. */
  discard(): Promise<void>;
}

/** Sends one request and resolves with the response once its headers are in (never following a redirect). */
export type Send = (url: URL, init: ExchangeInit) => Promise<Exchange>;

/** A `fetch` (an injected one, for tests and embedding) as a sender. */
export function fetchSender(send: typeof fetch): Send {
  return async (url, { method, headers, body, cancel }) => {
    const controller = new AbortController();
    cancel.onCancel(() => controller.abort());
    const { signal } = controller;
    const response = await send(url, { method, headers, body: body as RequestInit["body"], redirect: "manual", signal });
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      body: response.body ?? (async function* () {})(),
      // fetch inflates what it was sent compressed: the declared length is then the compressed one.
      length: declaredLength(response.headers.get("content-length"), response.headers.get("content-encoding")),
      discard: async () => {
        await response.body?.cancel();
      },
    };
  };
}

/**
 * Pooled connections to the upstream API, the most recently used first. One idle for 4 s is closed (an answer's
 * `Keep-Alive: timeout=N` closes it a second before N): a server closes idle ones too (Node's after 5 s), and a
 * request sent on one it has just closed fails, which only idempotent methods may retry.
 */
const POOL = { keepAlive: true, scheduling: "lifo", timeout: 4_000 } as const;
const AGENTS = { "http:": new HttpAgent(POOL), "https:": new HttpsAgent(POOL) };
/** What a plain request would send (fetch sends the like); a tool's own headers win. */
const DEFAULT_HEADERS = { accept: "*/*", "accept-encoding": "gzip, deflate, br", "user-agent": "oapi-mcp-gen-runtime" };
/** Methods that may be sent again when a pooled connection turns out closed before any answer. */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * The runtime's own sender: `node:http`/`node:https` over keep-alive connections, a third of `fetch`'s cost per call
 * (fetch builds web streams, a Request, a Response and abort signals for each). Compressed answers are inflated as
 * they are read, so size caps apply to what they inflate to.
 */
export const nodeSender: Send = async (url, init) => {
  const { headers, payload } = await encodeBody(init);
  const outgoing = { ...DEFAULT_HEADERS, ...headers };
  try {
    return await sendOnce(url, init, outgoing, payload);
  } catch (error) {
    // A pooled connection the server closed while idle fails before any answer; once more on a fresh one is safe.
    if (error instanceof StaleConnection && IDEMPOTENT.has(init.method.toUpperCase())) return sendOnce(url, init, outgoing, payload);
    throw error instanceof StaleConnection ? error.cause : error;
  }
};

/** A request that failed on a reused connection before its answer began. */
class StaleConnection extends Error {}

function sendOnce(url: URL, init: ExchangeInit, headers: Record<string, string>, payload: Buffer | undefined): Promise<Exchange> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  const agent = url.protocol === "https:" ? AGENTS["https:"] : AGENTS["http:"];
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers, agent });
    // Cancelled, the request ends, and with it the answer being read (its stream fails).
    init.cancel.onCancel(() => req.destroy(new Error("The operation was aborted")));
    req.once("response", (response) => {
      // Read to its end, the connection goes back to the pool: a late cancellation must not close it under another call.
      response.once("end", () => init.cancel.onCancel(() => {}));
      resolve(exchange(response));
    });
    // Every error is heard (a request can fail again after its answer began, when the call times out); the first decides.
    req.on("error", (error: NodeJS.ErrnoException) => {
      const stale = req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
      reject(stale ? new StaleConnection(error.message, { cause: error }) : error);
    });
    req.end(payload);
  });
}

/** The body as bytes, with the headers it needs (its length; a form's type and a multipart boundary). */
async function encodeBody(init: ExchangeInit): Promise<{ headers: Record<string, string>; payload: Buffer | undefined }> {
  const headers: Record<string, string> = {};
  // A header a document names `__proto__` stays a header.
  for (const [name, value] of Object.entries(init.headers)) setOwn(headers, name.toLowerCase(), value);
  const { body } = init;
  let payload: Buffer | undefined;
  if (typeof body === "string") payload = Buffer.from(body, "utf8");
  else if (body instanceof Uint8Array) payload = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  else if (body !== undefined) {
    // Forms are encoded as fetch encodes them: a URL-encoded string, or multipart with a boundary of its own.
    const encoded = new Response(body);
    const type = encoded.headers.get("content-type");
    if (type && (body instanceof FormData || headers["content-type"] === undefined)) headers["content-type"] = type;
    payload = Buffer.from(await encoded.arrayBuffer());
  }
  if (payload !== undefined) headers["content-length"] = String(payload.byteLength);
  return { headers, payload };
}

/** A response as an exchange, inflating a gzip, deflate or brotli body as it is read. */
function exchange(response: IncomingMessage): Exchange {
  const encoding = String(response.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const inflate = inflaterFor(encoding);
  // pipeline ends the inflater with an error when the connection fails, so a read never waits on a dead socket. A
  // failure before reading begins is heard here and surfaces when the body is read.
  response.on("error", () => {});
  const body = inflate ? pipeline(response, inflate, () => {}) : response;
  return {
    status: response.statusCode ?? 0,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    body,
    length: inflate ? undefined : declaredLength(response.headers["content-length"], null),
    discard: async () => {
      response.destroy();
      inflate?.destroy();
    },
  };
}

/** A Content-Length as a number of bytes, unless the body is encoded (then what it inflates to is unknown). */
function declaredLength(contentLength: string | null | undefined, encoding: string | null): number | undefined {
  if (encoding !== null && encoding.trim().toLowerCase() !== "identity") return undefined;
  const length = Number(contentLength ?? Number.NaN);
  return Number.isInteger(length) && length >= 0 ? length : undefined;
}

/**
 * An inflater for a content encoding (none for identity or an unknown one). Lenient as fetch is: a body cut short or
 * empty (a 204 or a HEAD answer that still names an encoding) ends the stream instead of failing it.
 */
function inflaterFor(encoding: string): Transform | undefined {
  const lenient = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
  if (encoding === "gzip" || encoding === "x-gzip") return createGunzip(lenient);
  if (encoding === "deflate") return createInflate(lenient);
  if (encoding === "br")
    return createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH });
  return undefined;
}
