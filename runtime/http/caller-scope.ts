import type { IncomingMessage, ServerResponse } from "node:http";
import { inRequestScope, type RequestScope } from "../base/request-scope.js";
import { clientGroup } from "./client-group.js";

/** The scope of one HTTP request: its caller is the client's address group; it is gone when the connection closes early. */
export function callerScope(req: IncomingMessage, res: ServerResponse): RequestScope {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return { caller: clientGroup(req.socket.remoteAddress ?? "unknown"), gone: gone.signal };
}

/** A request handler whose work (tool calls among it) runs in the scope of the request it answers. */
export function scoped(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) => inRequestScope(callerScope(req, res), () => handle(req, res));
}
