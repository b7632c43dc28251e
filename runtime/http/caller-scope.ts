import type { IncomingMessage, ServerResponse } from "node:http";
import { inRequestScope, openRequestScope, type RequestScope } from "../base/request-scope.js";
import { clientGroup } from "./client-group.js";
import type { SignInPort } from "./sign-in-port.js";

/** The scope of one HTTP request: its caller is the client's address group; it is gone when the connection closes early. */
export function callerScope(req: IncomingMessage, res: ServerResponse): RequestScope {
  // Made when first asked for (code mode's runs wait on it): a tool call through a busy server never pays for it.
  let gone: AbortController | undefined;
  const controller = () => {
    gone ??= new AbortController();
    return gone;
  };
  res.once("close", () => {
    if (!res.writableFinished) controller().abort();
  });
  return {
    caller: clientGroup(req.socket.remoteAddress ?? "unknown"),
    get gone() {
      return controller().signal;
    },
  };
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
