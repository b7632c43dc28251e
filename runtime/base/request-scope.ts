import { AsyncLocalStorage } from "node:async_hooks";

/** What the transport knows of the caller behind the request being answered, whatever protocol path serves it. */
export interface RequestScope {
  /** Who the caller is, for per-caller shares: a verified identity when sign-in is on, else its network client group. */
  caller: string;
  /** Aborted when the caller goes away (its connection closed before the answer was sent). */
  gone: AbortSignal;
}

const scopes = new AsyncLocalStorage<RequestScope>();

/** The caller of every request on a transport without a network (stdio): one local user. */
const LOCAL: RequestScope = { caller: "local", gone: new AbortController().signal };

/** Runs `work` as the answer to one request from `scope`'s caller: everything it starts sees that scope. */
export function inRequestScope<T>(scope: RequestScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** The scope of the request being answered; stdio and direct calls are the one local caller. */
export function requestScope(): RequestScope {
  return scopes.getStore() ?? LOCAL;
}
