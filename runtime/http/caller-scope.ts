import type { IncomingMessage, ServerResponse } from "node:http";
import { inRequestScope, openRequestScope, type RequestScope } from "../base/request-scope.js";
import { clientGroup } from "./client-group.js";
import type { SignInPort } from "./sign-in-port.js";

/** The scope of one HTTP request: its caller is the client's address group; it is gone when the connection closes early. */
export function callerScope(req: IncomingMessage, res: ServerResponse): RequestScope {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return { caller: clientGroup(req.socket.remoteAddress ?? "unknown"), gone: gone.signal };
}

/**
 * Resource mode: the request's caller as its bearer token says (its scope then keys per-caller shares on the token's
 * subject, not the network); false once a 401 or 503 has answered it.
 */
export async function signedInto(guard: SignInPort, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const caller = await guard.admit(req, res);
  if (!caller) return false;
  const scope = openRequestScope();
  if (scope) {
    scope.signedIn = caller;
    scope.caller = `user ${caller.subject}`;
  }
  return true;
}

/** A request handler whose work (tool calls among it) runs in the scope of the request it answers (one opened outside stays). */
export function scoped(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return (req, res) => (openRequestScope() ? handle(req, res) : inRequestScope(callerScope(req, res), () => handle(req, res)));
}
