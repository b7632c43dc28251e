import { readFile } from "node:fs/promises";
import { isJsonMediaType } from "oapi-mcp-gen-runtime";
import { isJsonObject, type JsonValue } from "../../openapi/document/index.js";
import { type AllowedHosts, FetchError, type FetchLimits, hostAllowed, sendGuarded, urlPort } from "../../openapi/fetch/index.js";
import { ToolFailure } from "../documents/index.js";
import type { BuiltRequest } from "./request-builder.js";

/** What `call_endpoint` may do: the operator's hosts, the operator's credentials per host, and the caps of one call. */
export interface CallPolicy {
  /** Hosts calls may reach (a bare host on any port). */
  hosts: AllowedHosts;
  /** Headers the operator attaches to calls to a host (`host` or `host:port`). */
  credentials: ReadonlyMap<string, Readonly<Record<string, string>>>;
  limits: Pick<FetchLimits, "maxBytes" | "timeoutMs">;
}

/**
 * Reads the operator's credentials file: `{ "host[:port]": { "Header-Name": "value" | "env:VARIABLE" } }`. Values
 * named `env:…` are read from the environment, so the file need not hold secrets.
 */
export async function readCallCredentials(
  path: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Map<string, Record<string, string>>> {
  const credentials = new Map<string, Record<string, string>>();
  if (path === undefined) return credentials;
  const parsed: unknown = JSON.parse(await readFile(path, "utf8"));
  if (!isJsonObject(parsed)) throw new Error(`${path}: expected an object of host → headers`);
  for (const [host, headers] of Object.entries(parsed)) {
    if (!isJsonObject(headers)) throw new Error(`${path}: the headers of ${host} must be an object`);
    const resolved: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== "string") throw new Error(`${path}: header ${name} of ${host} must be a string`);
      const text = value.startsWith("env:") ? env[value.slice(4)] : value;
      if (text === undefined) throw new Error(`${path}: environment variable ${value.slice(4)} (for ${host}) is not set`);
      resolved[name.toLowerCase()] = text;
    }
    credentials.set(host.toLowerCase(), resolved);
  }
  return credentials;
}

/** What `call_endpoint` reports: the request as sent (credentials hidden) and the answer. */
export type CallReport = {
  request: { method: string; url: string; headers: Record<string, string> };
  status: number;
  content_type: string;
  body: JsonValue;
  truncated: boolean;
  elapsed_ms: number;
  credentials_used: boolean;
};

/** Placeholders a call may still carry: the credentials, which the operator's configuration supplies. */
const SENT_UNRESOLVED = new Set(["credentials"]);

/** The hosts a server may call, as the operator allowed them: a host with its ports, or alone for any port. */
function allowedList(hosts: CallPolicy["hosts"]): string {
  const shown = (host: string) => (host.includes(":") ? `[${host}]` : host);
  return [...hosts]
    .flatMap(([host, ports]) => (ports === "any port" ? [`${shown(host)} (any port)`] : [...ports].map((port) => `${shown(host)}:${port}`)))
    .join(", ");
}

/** Sends a built request to an allowed host, with the operator's credentials for it and nobody else's. */
export async function callEndpoint(request: BuiltRequest, policy: CallPolicy): Promise<CallReport> {
  const blocking = request.unresolved.filter((mark) => !SENT_UNRESOLVED.has(mark.where));
  if (blocking.length > 0)
    throw new ToolFailure(
      `cannot call: values are missing (${blocking.map((mark) => `${mark.where} ${mark.name}`).join(", ")}); pass them in parameters, body or base_url`,
    );
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = urlPort(url);
  if (!hostAllowed(policy.hosts, host, port))
    throw new ToolFailure(`calls to ${url.host} are not allowed; this server may call: ${allowedList(policy.hosts)}`);
  const headers = withoutCredentials(request);
  // A public operation gets no credential: the operator's secret goes only where the document asks for one.
  const own = request.public ? undefined : (policy.credentials.get(`${host}:${port}`) ?? policy.credentials.get(host));
  for (const [name, value] of Object.entries(own ?? {})) headers[name] = value;
  for (const slot of request.credentials) if (slot.in === "query") url.search = withoutQueryPair(url.search, slot.name);
  const started = performance.now();
  let answer: Awaited<ReturnType<typeof sendGuarded>>;
  try {
    answer = await sendGuarded(
      url,
      { allowedHosts: policy.hosts, allowPrivate: false },
      { ...policy.limits, maxRedirects: 0 },
      { method: request.method, headers, ...(request.body !== null ? { body: request.body } : {}) },
    );
  } catch (error) {
    if (error instanceof FetchError) throw new ToolFailure(`the call failed: ${error.message}`);
    throw error;
  }
  const contentType = String(answer.headers["content-type"] ?? "");
  const shown = { ...headers };
  for (const name of Object.keys(own ?? {})) shown[name] = "[operator credential]";
  return {
    request: { method: request.method, url: url.href, headers: shown },
    status: answer.status,
    content_type: contentType,
    body: bodyOf(answer.body, contentType, answer.truncated),
    truncated: answer.truncated,
    elapsed_ms: Math.round(performance.now() - started),
    credentials_used: own !== undefined,
  };
}

/** The built request's headers without its credential placeholders (a caller never supplies credentials). */
function withoutCredentials(request: BuiltRequest): Record<string, string> {
  const headers = { ...request.headers };
  for (const slot of request.credentials) if (slot.in === "header") delete headers[slot.name.toLowerCase()];
  if (request.credentials.some((slot) => slot.in === "cookie")) delete headers.cookie;
  delete headers.authorization;
  return headers;
}

/** The answer as JSON when it is JSON (whatever the document said), as text when it reads as text, else a summary. */
function bodyOf(bytes: Buffer, contentType: string, truncated: boolean): JsonValue {
  const text = bytes.toString("utf8");
  if (isJsonMediaType(contentType) && !truncated) {
    try {
      const parsed: JsonValue = JSON.parse(text);
      return parsed;
    } catch {
      return text;
    }
  }
  if (/^text\/|xml|yaml|javascript|x-www-form-urlencoded/i.test(contentType) || !text.includes("\uFFFD")) return text;
  return `[${bytes.length} bytes of ${contentType || "binary data"}]`;
}

/** A query string without the pairs named `name` (the rest kept as written). */
function withoutQueryPair(search: string, name: string): string {
  const pairs = search.replace(/^\?/, "").split("&");
  const kept = pairs.filter((pair) => pair !== "" && decodeURIComponent(pair.split("=")[0] ?? "") !== name);
  return kept.length > 0 ? `?${kept.join("&")}` : "";
}
