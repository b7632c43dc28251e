import { isRecord, setOwn } from "../base/own-property.js";
import type { BodyBinding, HttpBinding, ParameterBinding } from "../base/tool.js";
import { isJsonMediaType } from "../result/response-content.js";
import { readFileArgument, type UploadPolicy } from "./file-argument.js";
import { fieldEncoding, firstMediaType, formFields, urlEncodedForm } from "./form-body.js";
import { headerRefusal, headerValueProblem } from "./header-policy.js";
import { type MultipartPart, multipartBody, PartHeaderError } from "./multipart.js";
import { cookiePairs, encodeValue, headerText, pathValue, queryPairs, scalarText } from "./parameter-style.js";

/** The request a tool call sends upstream, before credentials are added. */
export interface UpstreamRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string | URLSearchParams | FormData | Uint8Array;
}

/** A tool argument that cannot be turned into a safe request; its message is shown to the caller. */
export class ArgumentError extends Error {
  override name = "ArgumentError";
}

/**
 * Builds the upstream request from validated arguments. Path values are percent-encoded one segment each,
 * so no argument can change which path (or host) is called.
 */
export async function buildUpstreamRequest(
  http: HttpBinding,
  args: Record<string, unknown>,
  baseUrl: URL,
  uploads: UploadPolicy = {},
): Promise<UpstreamRequest> {
  const path = expandPath(http, args);
  const basePath = baseUrl.pathname.replace(/\/+$/, "");
  // A `.` or `..` segment (however encoded) would be resolved away by the URL parser and call another path.
  if (path.split("/").some((segment) => DOT_SEGMENT.test(segment))) throw new ArgumentError('path arguments must not be "." or ".."');
  const url = new URL(baseUrl.origin);
  // The pathname setter percent-encodes what the document's template spells raw (spaces, non-ASCII).
  url.pathname = `${basePath}${path}`;
  const query: string[] = [];
  const headers: Record<string, string> = { accept: acceptFor(http) };
  const cookies: string[] = [];
  for (const parameter of http.parameters) {
    const raw = Object.hasOwn(args, parameter.argument) ? args[parameter.argument] : undefined;
    if (raw === undefined || raw === null) continue;
    const value = parameter.content === undefined ? raw : mediaText(parameter.content, raw);
    if (parameter.in === "query") for (const pair of queryPairs(parameter, value)) query.push(pair);
    else if (parameter.in === "header") setHeader(headers, parameter, value);
    else if (parameter.in === "cookie") for (const pair of cookiePairs(parameter, value)) cookies.push(pair);
  }
  if (query.length > 0) url.search = query.join("&");
  if (cookies.length > 0) headers.cookie = cookies.join("; ");
  const request: UpstreamRequest = { method: http.method, url, headers };
  if (http.body !== undefined && args.body !== undefined)
    await attachBody(request, http.body, withoutReadOnly(http.body, args.body), uploads);
  return request;
}

function acceptFor(http: HttpBinding): string {
  if (http.response === "text") return "text/plain, */*;q=0.5";
  if (http.response === "binary") return "*/*";
  return "application/json, */*;q=0.5";
}

async function attachBody(request: UpstreamRequest, body: BodyBinding, value: unknown, uploads: UploadPolicy): Promise<void> {
  const concrete = !body.mediaType.includes("*");
  switch (body.kind) {
    case "json":
      request.headers["content-type"] = concrete ? body.mediaType : "application/json";
      request.body = JSON.stringify(value);
      return;
    case "text":
      request.headers["content-type"] = concrete ? body.mediaType : "text/plain";
      request.body = String(value);
      return;
    case "form":
      request.headers["content-type"] = "application/x-www-form-urlencoded";
      request.body = urlEncodedForm(asObject(value), body.encoding);
      return;
    case "multipart": {
      const parts: MultipartPart[] = [];
      const files = new Set(body.files ?? []);
      for (const [name, item] of Object.entries(asObject(value))) {
        if (item === undefined || item === null) continue;
        const encoding = fieldEncoding(body.encoding, name);
        const headers = encoding?.headers !== undefined ? { headers: encoding.headers } : {};
        if (files.has(name)) {
          for (const file of Array.isArray(item) ? item : [item]) {
            const read = await readFileArgument(file, uploads, name);
            const contentType = firstMediaType(read.contentType) ?? firstMediaType(encoding?.contentType) ?? "application/octet-stream";
            parts.push({ name, data: read.bytes, filename: read.filename ?? name, contentType, ...headers });
          }
          continue;
        }
        for (const field of formFields(name, item, encoding, true)) {
          parts.push({ name: field.name, data: field.text, ...(field.contentType ? { contentType: field.contentType } : {}), ...headers });
        }
      }
      const encoded = multipartBodyOrError(parts);
      request.headers["content-type"] = encoded.contentType;
      request.body = encoded.bytes;
      return;
    }
    case "binary": {
      const read = await readFileArgument(value, uploads, "body");
      request.headers["content-type"] = concrete ? body.mediaType : (read.contentType ?? "application/octet-stream");
      request.body = read.bytes;
      return;
    }
  }
}

function multipartBodyOrError(parts: MultipartPart[]): ReturnType<typeof multipartBody> {
  try {
    return multipartBody(parts);
  } catch (error) {
    if (error instanceof PartHeaderError) throw new ArgumentError(error.message);
    throw error;
  }
}

/** The body without the read-only properties a caller sent back. */
function withoutReadOnly(body: BodyBinding, value: unknown): unknown {
  if (!body.readOnly || typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) if (!body.readOnly.includes(name)) setOwn(kept, name, item);
  return kept;
}

function asObject(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new ArgumentError("body must be an object");
  return value;
}

/** `.`, `..` and their percent-encoded spellings, which URL parsers treat as dot segments. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Substitutes `{name}` placeholders with encoded, prefix-stripped values. */
function expandPath(http: HttpBinding, args: Record<string, unknown>): string {
  const byName = new Map(http.parameters.filter((p) => p.in === "path").map((p) => [p.name, p]));
  const earlier: string[] = [];
  return http.path.replace(/\{([^{}]+)\}/g, (placeholder, name: string) => {
    const parameter = byName.get(name);
    if (!parameter) throw new ArgumentError(`path template placeholder ${placeholder} has no parameter`);
    const raw = Object.hasOwn(args, parameter.argument) ? args[parameter.argument] : undefined;
    if (raw === undefined || raw === null) throw new ArgumentError(`missing path argument "${parameter.argument}"`);
    const value =
      parameter.content !== undefined
        ? mediaText(parameter.content, raw)
        : typeof raw === "object"
          ? raw
          : stripPrefix(scalarText(raw), parameter.prefixes, earlier, parameter.argument);
    if (value === "") throw new ArgumentError(`path argument "${parameter.argument}" must not be empty`);
    earlier.push(typeof value === "string" ? value : "");
    return pathValue(parameter, value, encodeValue);
  });
}

/**
 * Removes the first matching resource-name prefix, so `memos/abc` and `abc` both name memo `abc`. A `*` in a prefix
 * stands for a parent's id: given `parents` (the earlier path values of the call), the last ones must equal what the
 * `*`s matched, or the value names another parent's resource and is refused (`memos/other/reactions/r1` is not a
 * reaction of memo `abc`).
 */
export function stripPrefix(
  value: string,
  prefixes: readonly string[] | undefined,
  parents?: readonly string[],
  argument = "value",
): string {
  for (const prefix of prefixes ?? []) {
    const pattern = new RegExp(`^${prefix.split("*").map(escapeRegExp).join("([^/]+)")}`);
    const match = pattern.exec(value);
    if (!match || match[0].length >= value.length) continue;
    const named = match.slice(1);
    const expected = parents ? parents.slice(Math.max(0, parents.length - named.length)) : named;
    if (expected.length === named.length && named.some((segment, index) => segment !== expected[index])) {
      throw new ArgumentError(
        `path argument "${argument}" names a resource of ${JSON.stringify(named.join("/").slice(0, 80))}, not of ${JSON.stringify(expected.join("/").slice(0, 80))}`,
      );
    }
    return value.slice(match[0].length);
  }
  return value;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A `content` parameter's value as the text of its media type: JSON for JSON types, the value itself otherwise. */
function mediaText(mediaType: string, value: unknown): string {
  if (isJsonMediaType(mediaType) || typeof value !== "string") return JSON.stringify(value);
  return value;
}

/**
 * Sets a header parameter's value. Headers that frame, route or authenticate the request are never set from an
 * argument, whatever a (hand-edited) binding says; a value that would end the header line is refused.
 */
function setHeader(headers: Record<string, string>, parameter: ParameterBinding, value: unknown): void {
  const refusal = headerRefusal(parameter.name);
  if (refusal !== undefined) throw new ArgumentError(`header "${excerptName(parameter.name)}" ${refusal}; it cannot be set by an argument`);
  const text = headerText(parameter, value);
  const problem = headerValueProblem(text);
  if (problem !== undefined) throw new ArgumentError(`header argument "${parameter.argument}" ${problem}`);
  setOwn(headers, parameter.name.toLowerCase(), text);
}

/** A header name as shown in a message: short, its control characters escaped. */
function excerptName(name: string): string {
  return JSON.stringify(name.slice(0, 60)).slice(1, -1);
}
