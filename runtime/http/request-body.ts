import type { IncomingMessage } from "node:http";

/** The request body as text, or undefined when it is longer than maxBytes (a declared length is refused unread). */
export async function readRequestBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(req.headers["content-length"]) > maxBytes) return undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req) {
    received += chunk.length;
    if (received > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
