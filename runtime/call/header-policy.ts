/**
 * Which request headers a parameter may set. OpenAPI ignores header parameters named `Accept`, `Content-Type` and
 * `Authorization`; the same goes for every header that frames, routes or authenticates a request, so that no document
 * and no argument can smuggle a second request onto a pooled connection or send a credential to another host.
 * @see https://spec.openapis.org/oas/v3.1.1#fixed-fields-for-use-with-schema (the `in: header` rule)
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-7.6.1 (hop-by-hop fields)
 */

/** Headers HTTP itself, the negotiation or the credentials decide; a `Proxy-*` header is one of them too. */
const CONTROLLED_HEADERS = new Set([
  "accept",
  "authorization",
  "connection",
  "content-length",
  "content-type",
  "cookie",
  "expect",
  "host",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * Headers common upstreams (frameworks, gateways, proxies) read as another method or route: a read-only caller could
 * turn a GET into a DELETE, or a request into one for another path or host.
 */
const ROUTING_HEADERS = new Set([
  "forwarded",
  "x-http-method",
  "x-http-method-override",
  "x-method-override",
  "x-original-method",
  "x-original-url",
  "x-rewrite-url",
]);

/** Headers the OpenAPI specification itself says a header parameter cannot define. */
const OPENAPI_IGNORED_HEADERS = new Set(["accept", "authorization", "content-type"]);

/** An RFC 9110 token: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a header parameter of this name is never sent, or undefined when it may be. */
export function headerRefusal(name: string): string | undefined {
  if (!HEADER_NAME.test(name)) return "is not a valid header name";
  const lower = name.toLowerCase();
  if (OPENAPI_IGNORED_HEADERS.has(lower)) return "is ignored as a parameter (OpenAPI)";
  if (lower === "cookie") return "is not a parameter (cookies are `in: cookie` parameters)";
  if (CONTROLLED_HEADERS.has(lower) || lower.startsWith("proxy-")) return "frames or routes the request (HTTP sets it)";
  if (ROUTING_HEADERS.has(lower) || lower.startsWith("x-forwarded-"))
    return "changes the request's method or route on common upstreams (the operation decides those)";
  return undefined;
}

/** What HTTP carries in a header value: tab, visible ASCII and the rest of Latin-1 (RFC 9110 field-vchar, obs-text). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Why a text cannot be a header value (a line break, a control character, a character past U+00FF), or undefined. */
export function headerValueProblem(text: string): string | undefined {
  if (HEADER_VALUE.test(text)) return undefined;
  if (/[\r\n\0]/.test(text)) return "must not contain line breaks";
  const at = [...text].findIndex((character) => !HEADER_VALUE.test(character));
  const character = [...text][at] ?? "";
  const code = `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  return `must be Latin-1 text without control characters (it has ${code} at character ${at + 1}); encode other text as the API documents`;
}

/** True for `Accept`, `Content-Type` and `Authorization`: ignored as parameters by the specification itself. */
export function isOpenApiIgnoredHeader(name: string): boolean {
  return OPENAPI_IGNORED_HEADERS.has(name.toLowerCase());
}

/** True when a header name is an RFC 9110 token. */
export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}
