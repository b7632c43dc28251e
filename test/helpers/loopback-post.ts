import { request } from "node:http";

/** How to send one POST: the loopback address it comes from, headers, and a time after which the caller hangs up. */
export interface PostOptions {
  session?: string;
  headers?: Record<string, string>;
  /** Closes the connection this many milliseconds after sending, as a client that went away (resolves status 0). */
  hangUpAfterMs?: number;
}

/** One JSON-RPC POST to `/mcp` from a given loopback address; the status, session id and body text. */
export function postFrom(url: URL, from: string, body: unknown, options: PostOptions = {}) {
  const { session, headers = {}, hangUpAfterMs } = options;
  return new Promise<{ status: number; session?: string; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const id = res.headers["mcp-session-id"];
          resolve({
            status: res.statusCode ?? 0,
            ...(typeof id === "string" ? { session: id } : {}),
            text: Buffer.concat(chunks).toString(),
          });
        });
      },
    );
    if (hangUpAfterMs !== undefined) {
      setTimeout(() => {
        req.destroy();
        resolve({ status: 0, text: "" });
      }, hangUpAfterMs);
    }
    req.on("error", (error) => (hangUpAfterMs === undefined ? reject(error) : undefined));
    req.end(JSON.stringify(body));
  });
}
