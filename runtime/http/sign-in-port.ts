import type { IncomingMessage, ServerResponse } from "node:http";
import type { SignedInCaller } from "../base/request-scope.js";

/**
 * What the HTTP layer asks of sign-in (resource or proxy mode), whose guard (`runtime/sign-in/`) stands above it: to
 * answer its own endpoints, to admit a request's caller (or answer 401/503 itself), and to refuse a call for a scope.
 */
export interface SignInPort {
  /** Answers a request for the sign-in metadata or the proxy's endpoints (true), or leaves it (false). */
  answersSignIn(req: IncomingMessage, res: ServerResponse): boolean;
  /** The signed-in caller of an MCP request, or undefined once a refusal has answered it. */
  admit(req: IncomingMessage, res: ServerResponse): Promise<SignedInCaller | undefined>;
  /** 403 `insufficient_scope` for a call the caller's token does not grant, naming the scopes to ask for. */
  refuseScope(res: ServerResponse, caller: SignedInCaller, missing: readonly string[]): void;
}
