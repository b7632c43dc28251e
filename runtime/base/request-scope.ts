import { AsyncLocalStorage } from "node:async_hooks";

/** A caller signed in (resource or proxy mode): who, through which client, allowed what. */
export interface SignedInCaller {
  /** The token's `sub`. */
  subject: string;
  /** The token's `client_id` (or `azp`), when it names one. */
  client?: string;
  /** The scopes the token grants. */
  scopes: ReadonlySet<string>;
  /** The MCP access token itself: never sent upstream, only exchanged for one that is meant for the upstream. */
  token: string;
  /** Proxy mode: the Authorization the user's own provider token makes, sent upstream with every call of theirs. */
  upstreamAuthorization?: string;
  /** When the token expires (ms since the epoch), for caching what is derived from it. */
  expiresAt: number;
  /** The `WWW-Authenticate` value that asks the client to sign in again with these scopes (a step-up). */
  challenge(scopes: readonly string[]): string;
}

/** The trace of one MCP request (telemetry switched on): named once its message is read, ended with its answer. */
export interface RequestTrace {
  /** Names the span by what the JSON-RPC message asks (`tools/call memo_list_memos`), and takes its `_meta` trace context. */
  describe(message: unknown): void;
  /** A child span for one upstream call: the headers carrying its trace context (`traceparent`), and its end. */
  upstream(method: string, url: URL): { headers: Record<string, string>; end(status?: number, error?: string): void };
  /** Notes a tool call's outcome (its log event's fields) on the request's span. */
  note(toolCall: Record<string, unknown>): void;
  end(status: number): void;
}

/** What the transport knows of the caller behind the request being answered, whatever protocol path serves it. */
export interface RequestScope {
  /** Who the caller is, for per-caller shares: a verified identity when sign-in is on, else its network client group. */
  caller: string;
  /** Aborted when the caller goes away (its connection closed before the answer was sent). */
  gone: AbortSignal;
  /** The signed-in caller, when the server is a resource server. */
  signedIn?: SignedInCaller;
  /** This request's trace, when telemetry is switched on. */
  trace?: RequestTrace;
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

/** The scope of the request being answered, when one was opened (an HTTP request), else undefined. */
export function openRequestScope(): RequestScope | undefined {
  return scopes.getStore();
}
