/**
 * CORS for `/mcp`, for a browser client on an origin the Origin rule lets in (its own host, or `ALLOWED_ORIGINS`): the
 * answer names that origin and shows the headers a client reads (the session id, the era, the sign-in challenge), and a
 * preflight is answered before sign-in, as browsers send it without credentials. Other origins never get here (403).
 * @see https://fetch.spec.whatwg.org/#http-cors-protocol
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** What a browser client sends: both eras' headers, the bearer token, and a resumed stream's last event. */
const REQUEST_HEADERS = "authorization, content-type, accept, last-event-id, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name";
/** What a browser client must read from an answer. */
const EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";

/** Marks the answer to an allowed origin's request as readable there; answers its preflight (true when it did). */
export function answeredCors(req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  res.setHeader("vary", "Origin");
  res.setHeader("access-control-allow-origin", origin.trim());
  res.setHeader("access-control-expose-headers", EXPOSED_HEADERS);
  if (req.method !== "OPTIONS") return false;
  res.writeHead(204, {
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": REQUEST_HEADERS,
    "access-control-max-age": "600",
  });
  res.end();
  return true;
}
