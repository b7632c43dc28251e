import type { ServerResponse } from "node:http";

/** Writes a JSON response with an exact Content-Length. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** Writes JSON text already serialized, with an exact Content-Length. */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
