import type { IncomingMessage, ServerResponse } from "node:http";
import { DEFAULT_MAX_REQUEST_BODY_SIZE, requestBodyTooLargeMessage } from "@modelcontextprotocol/sdk/server/requestBody.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { answerModern, type ModernHost, rejectionBody } from "../protocol/modern-exchange.js";
import type { Route } from "../protocol/modern-protocol.js";
import { sendJson } from "./json-response.js";
import { readRequestBody } from "./request-body.js";

/** Returned by readMessage when it has already answered the request (body too large, or not JSON). */
export const ANSWERED: unique symbol = Symbol("answered");

/**
 * The parsed JSON body of an MCP POST; ANSWERED after a 413 or a 400 parse error in the SDK's words; undefined when the
 * request is not JSON (the SDK answers it, unread, with its 415).
 */
export async function readMessage(
  req: IncomingMessage,
  res: ServerResponse,
  maxRequestBytes: number | undefined,
): Promise<unknown | typeof ANSWERED | undefined> {
  if (!isJsonContentType(req.headers["content-type"] ?? null)) return undefined;
  const maxBytes = maxRequestBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const body = await readRequestBody(req, maxBytes);
  if (body === undefined) {
    sendJson(res, 413, jsonRpcError(-32000, requestBodyTooLargeMessage(maxBytes)));
    return ANSWERED;
  }
  try {
    return JSON.parse(body);
  } catch {
    sendJson(res, 400, jsonRpcError(-32700, "Parse error: Invalid JSON"));
    return ANSWERED;
  }
}

/** A JSON-RPC error answer to a message that could not be read (no id to answer). */
function jsonRpcError(code: number, message: string) {
  return { jsonrpc: "2.0", error: { code, message }, id: null };
}

/** Answers a message routed to the 2026-07-28 era: a refusal, an accepted notification (202) or a request's result. */
export async function serveModern(
  host: ModernHost,
  route: Exclude<Route, { era: "legacy" }>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (route.era === "rejected") return sendJson(res, route.rejection.status, rejectionBody(route.id, route.rejection.error));
  const accept = req.headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    return sendJson(res, 406, jsonRpcError(-32000, "Not Acceptable: Client must accept both application/json and text/event-stream"));
  }
  if (route.era === "modern-notification") {
    res.writeHead(202).end();
    return;
  }
  const answer = await answerModern(host, route.request, req.headers);
  sendJson(res, answer.status, answer.body);
}
