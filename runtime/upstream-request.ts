import type { HttpBinding, ParameterBinding } from "./tool.js";

/** The request a tool call sends upstream, before credentials are added. */
export interface UpstreamRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** A tool argument that cannot be turned into a safe request; its message is shown to the caller. */
export class ArgumentError extends Error {
  override name = "ArgumentError";
}

/**
 * Builds the upstream request from validated arguments. Path values are percent-encoded one segment each,
 * so no argument can change which path (or host) is called.
 */
export function buildUpstreamRequest(http: HttpBinding, args: Record<string, unknown>, baseUrl: URL): UpstreamRequest {
  const path = expandPath(http, args);
  const basePath = baseUrl.pathname.replace(/\/+$/, "");
  const url = new URL(baseUrl.origin);
  url.pathname = `${basePath}${path}`;
  if (url.pathname !== `${basePath}${path}`) {
    throw new ArgumentError('path arguments must not be "." or ".."');
  }
  const query = new URLSearchParams();
  const headers: Record<string, string> = { accept: "application/json" };
  const cookies: string[] = [];
  for (const parameter of http.parameters) {
    const value = args[parameter.argument];
    if (value === undefined || value === null) continue;
    if (parameter.in === "query") appendQuery(query, parameter.name, value);
    else if (parameter.in === "header") headers[parameter.name.toLowerCase()] = headerValue(parameter, value);
    else if (parameter.in === "cookie") cookies.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(scalarText(value))}`);
  }
  const search = query.toString();
  if (search !== "") url.search = search;
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  const request: UpstreamRequest = { method: http.method, url, headers };
  if (http.bodyMediaType !== undefined && args.body !== undefined) {
    headers["content-type"] = http.bodyMediaType;
    request.body = JSON.stringify(args.body);
  }
  return request;
}

/** Substitutes `{name}` placeholders with encoded, prefix-stripped values. */
function expandPath(http: HttpBinding, args: Record<string, unknown>): string {
  const byName = new Map(http.parameters.filter((p) => p.in === "path").map((p) => [p.name, p]));
  return http.path.replace(/\{([^{}]+)\}/g, (placeholder, name: string) => {
    const parameter = byName.get(name);
    if (!parameter) throw new ArgumentError(`path template placeholder ${placeholder} has no parameter`);
    const raw = args[parameter.argument];
    if (raw === undefined || raw === null) throw new ArgumentError(`missing path argument "${parameter.argument}"`);
    const value = stripPrefix(scalarText(raw), parameter.prefixes);
    if (value === "") throw new ArgumentError(`path argument "${parameter.argument}" must not be empty`);
    return encodeURIComponent(value);
  });
}

/** Removes the first matching resource-name prefix, so `memos/abc` and `abc` both name memo `abc`. */
export function stripPrefix(value: string, prefixes: readonly string[] | undefined): string {
  for (const prefix of prefixes ?? []) {
    const pattern = new RegExp(`^${prefix.split("*").map(escapeRegExp).join("[^/]+")}`);
    const match = pattern.exec(value);
    if (match && match[0].length < value.length) return value.slice(match[0].length);
  }
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Arrays repeat the key (`form`, exploded); objects spread their properties; the rest is text. */
function appendQuery(query: URLSearchParams, name: string, value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) if (item !== undefined && item !== null) query.append(name, scalarText(item));
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) if (item !== undefined && item !== null) query.append(key, scalarText(item));
  } else {
    query.append(name, scalarText(value));
  }
}

function headerValue(parameter: ParameterBinding, value: unknown): string {
  const text = Array.isArray(value) ? value.map(scalarText).join(",") : scalarText(value);
  if (/[\r\n\0]/.test(text)) throw new ArgumentError(`header argument "${parameter.argument}" must not contain line breaks`);
  return text;
}

function scalarText(value: unknown): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}
