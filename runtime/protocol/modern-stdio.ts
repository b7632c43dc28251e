import type { IncomingHttpHeaders } from "node:http";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { answerModern, type ModernHost, rejectionBody } from "./modern-exchange.js";
import { routeMessage } from "./modern-protocol.js";

/**
 * Serves 2026-07-28 messages on a stdio transport beside the SDK's 2025 session: a message whose `_meta` claims the
 * stateless era is answered by the 2026 exchange (`server/discover`, `tools/list`, `tools/call`); everything else,
 * `initialize` included, goes to the SDK server as before. Call it after the server is connected to the transport.
 * `headers` stand for the caller on every call (stdio has none: the operator's `Authorization`, if configured).
 */
export function serveModernOnStdio(transport: Transport, host: ModernHost, headers: IncomingHttpHeaders = {}): void {
  const legacy = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const route = routeMessage(message, {}, "stdio");
    if (route.era === "legacy") return legacy?.(message, extra);
    if (route.era === "modern-notification") return;
    const answer =
      route.era === "rejected"
        ? Promise.resolve(rejectionBody(route.id, route.rejection.error))
        : answerModern(host, route.request, headers).then((answered) => answered.body);
    void answer.then((body) => transport.send(body as JSONRPCMessage)).catch(() => {});
  };
  answerUnreadableLines(transport);
}

/**
 * A line that is not JSON gets -32700 and one that is no JSON-RPC message (a batch array, say) -32600, with a null id,
 * as over HTTP; the SDK's stdio transport only reports such lines to `onerror`, so a client waited forever.
 */
function answerUnreadableLines(transport: Transport): void {
  const reported = transport.onerror;
  transport.onerror = (error) => {
    const code = error instanceof SyntaxError ? -32700 : error.name === "ZodError" ? -32600 : undefined;
    if (code !== undefined) {
      const message =
        code === -32700 ? "Parse error: the line is not JSON" : "Invalid Request: not a JSON-RPC message (batches are not supported)";
      void transport.send({ jsonrpc: "2.0", id: null, error: { code, message } } as unknown as JSONRPCMessage).catch(() => {});
    }
    reported?.(error);
  };
}
