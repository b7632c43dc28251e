import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { checkedLookup } from "oapi-mcp-gen-runtime/address";
import { type AddressPolicy, mayConnect, urlPort } from "./address-policy.js";
import { errorCode, errorMessage } from "./error-detail.js";

/** Caps on one document download. */
export interface FetchLimits {
  /** @default 52428800 */
  maxBytes: number;
  /** Total time for all hops. @default 30000 */
  timeoutMs: number;
  /** @default 5 */
  maxRedirects: number;
}

/** A downloaded document. */
export interface FetchedText {
  text: string;
  contentType: string;
  finalUrl: URL;
}

/** A refused or failed download, with a message fit for the caller. */
export class FetchError extends Error {
  override name = "FetchError";
}

/**
 * Downloads a document over http(s). Every address the host resolves to is checked against the policy inside
 * the DNS lookup itself (so a second resolution cannot swap in another address), on every redirect.
 */
export async function fetchText(url: URL, policy: AddressPolicy, limits: FetchLimits): Promise<FetchedText> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  let current = url;
  for (let hop = 0; ; hop++) {
    checkUrl(current, policy);
    const response = await send(current, policy, deadline, limits, DOCUMENT_REQUEST);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if ([301, 302, 303, 307, 308].includes(status) && location) {
      response.resume();
      if (hop >= limits.maxRedirects) throw new FetchError(`too many redirects (more than ${limits.maxRedirects})`);
      current = new URL(location, current);
      continue;
    }
    if (status < 200 || status > 299) {
      response.resume();
      throw new FetchError(`HTTP ${status} from ${current.href}`);
    }
    const text = await readBody(response, limits.maxBytes);
    return { text, contentType: String(response.headers["content-type"] ?? ""), finalUrl: current };
  }
}

function checkUrl(url: URL, policy: AddressPolicy): void {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchError(`only http and https URLs are allowed, not ${url.protocol}`);
  if (url.username || url.password) throw new FetchError("URLs with credentials are not allowed");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0 && !mayConnect(host, host, urlPort(url), policy)) throw refused(url.hostname, host);
}

function refused(hostname: string, address: string): FetchError {
  return new FetchError(
    `refused to fetch from ${hostname} (${address}): loopback, private, link-local and metadata addresses are blocked; ` +
      "the operator can allow them with --allow-host or --allow-private",
  );
}

/** A DNS lookup that fails unless every resolved address is allowed on the port. */
function guardedLookup(policy: AddressPolicy, port: number): LookupFunction {
  return checkedLookup((hostname, address) => mayConnect(hostname, address, port, policy), refused);
}

/** What a guarded request sends besides its URL. */
export interface OutgoingRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

function send(
  url: URL,
  policy: AddressPolicy,
  signal: AbortSignal,
  limits: FetchLimits,
  outgoing: OutgoingRequest,
): Promise<IncomingMessage> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: outgoing.method,
      // A fresh connection each time: a pooled socket would skip the guarded lookup below.
      agent: false,
      lookup: guardedLookup(policy, urlPort(url)),
      signal,
      headers: outgoing.headers,
    });
    req.on("response", resolve);
    req.on("error", (error) => {
      if (error instanceof FetchError) reject(error);
      else if (signal.aborted) reject(new FetchError(`timed out after ${limits.timeoutMs} ms`));
      else reject(new FetchError(`cannot fetch ${url.href}: ${errorCode(error) ?? error.message}`));
    });
    req.end(outgoing.body);
  });
}

const DOCUMENT_REQUEST: OutgoingRequest = {
  method: "GET",
  headers: { accept: "application/json, application/yaml, text/yaml, */*;q=0.5", "user-agent": "oapi-mcp-gen-search" },
};

/** An answer to a guarded request: status, headers and the body up to the size cap. */
export interface GuardedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** True when the body was longer than the cap and was cut there. */
  truncated: boolean;
}

/**
 * Sends one request under the address policy (checked in the DNS lookup, as for documents) within the time cap,
 * following no redirect, and reads at most `maxBytes` of the answer.
 */
export async function sendGuarded(
  url: URL,
  policy: AddressPolicy,
  limits: FetchLimits,
  outgoing: OutgoingRequest,
): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  checkUrl(url, policy);
  const response = await send(url, policy, deadline, limits, outgoing);
  try {
    const { body, truncated } = await readCapped(response, limits.maxBytes);
    return { status: response.statusCode ?? 0, headers: response.headers, body, truncated };
  } catch (error) {
    if (deadline.aborted) throw new FetchError(`timed out after ${limits.timeoutMs} ms`);
    throw new FetchError(`answer interrupted: ${errorMessage(error)}`);
  }
}

/** At most `maxBytes` of a response body, and whether there was more (the rest is not read). */
async function readCapped(response: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const data of response) {
    const chunk = Buffer.isBuffer(data) ? data : Buffer.from(String(data));
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      response.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    size += chunk.length;
    chunks.push(chunk);
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new FetchError(`document larger than the ${maxBytes}-byte limit`);
  }
  let read: { body: Buffer; truncated: boolean };
  try {
    read = await readCapped(response, maxBytes);
  } catch (error) {
    throw new FetchError(`download interrupted: ${errorMessage(error)}`);
  }
  if (read.truncated) throw new FetchError(`document larger than the ${maxBytes}-byte limit`);
  return read.body.toString("utf8");
}
