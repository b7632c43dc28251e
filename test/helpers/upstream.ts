import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake upstream received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The query string as it arrived (`?…`, or empty). */
  search: string;
  headers: IncomingHttpHeaders;
  /** Header names and values as they arrived, alternating (what `headers` cannot hold, such as `__proto__`). */
  rawHeaders: string[];
  body: string;
}

/** How the fake upstream answers; the default is `{}` with 200. */
export type Responder = (request: RecordedRequest, res: ServerResponse) => void;

/** A real HTTP upstream on 127.0.0.1 that records every request. */
export async function startUpstream(responder: Responder = (_, res) => sendJson(res, 200, {})) {
  const requests: RecordedRequest[] = [];
  let respond = responder;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://upstream.test");
      const recorded = {
        method: req.method ?? "",
        path: url.pathname,
        query: url.searchParams,
        search: url.search,
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(recorded);
      respond(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}`),
    requests,
    /** Waits (up to `ms`) until this many requests have arrived in all: a call still on its way is waited for, not raced. */
    async received(count: number, ms = 10_000): Promise<void> {
      for (const deadline = Date.now() + ms; requests.length < count && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    /** Replaces the responder for the next requests. */
    respondWith(next: Responder) {
      respond = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON body with a status. */
export function sendJson(res: ServerResponse, status: number, body: unknown, contentType = "application/json"): void {
  res.writeHead(status, { "content-type": contentType });
  res.end(typeof body === "string" ? body : JSON.stringify(body));
}
