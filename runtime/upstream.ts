import type { UpstreamRequest } from "./upstream-request.js";

/** What came back from the upstream API; `fetchUpstream` never throws. */
export type UpstreamOutcome =
  | { kind: "response"; status: number; contentType: string; body: Buffer }
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
  maxRedirects?: number;
  fetch?: typeof fetch;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Sends the request, follows redirects by hand (dropping credentials off-origin), and reads a bounded body. */
export async function fetchUpstream(request: UpstreamRequest, options: UpstreamOptions): Promise<UpstreamOutcome> {
  const send = options.fetch ?? fetch;
  const signal = AbortSignal.timeout(options.timeoutMs);
  const origin = request.url.origin;
  let url = request.url;
  let method = request.method;
  let body = request.body;
  try {
    for (let hop = 0; ; hop++) {
      const sameOrigin = url.origin === origin;
      const headers = sameOrigin ? { ...request.headers, ...options.credentials } : withoutCookies(request.headers);
      if (body === undefined) delete headers["content-type"];
      const response = await send(url, { method, headers, body, redirect: "manual", signal });
      const location = response.headers.get("location");
      if (!REDIRECT_STATUSES.has(response.status) || location === null) {
        return await readBounded(response, options.maxResponseBytes);
      }
      await response.body?.cancel();
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
    if (signal.aborted) return { kind: "timeout", timeoutMs: options.timeoutMs };
    return { kind: "unreachable", detail: describeNetworkError(error) };
  }
}

function withoutCookies(headers: Record<string, string>): Record<string, string> {
  const { cookie: _, ...rest } = headers;
  return rest;
}

async function readBounded(response: Response, limit: number): Promise<UpstreamOutcome> {
  const contentType = response.headers.get("content-type") ?? "";
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel();
    return { kind: "too-large", limitBytes: limit };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  if (response.body) {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      // Leaving the loop cancels the stream, so the rest of the body is never read.
      if (size > limit) return { kind: "too-large", limitBytes: limit };
      chunks.push(Buffer.from(chunk));
    }
  }
  return { kind: "response", status: response.status, contentType, body: Buffer.concat(chunks) };
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String((cause as { code: unknown }).code) : undefined;
  return code ? `${error.message} (${code})` : error.message;
}
