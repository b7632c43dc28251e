import { createServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from "node:http";
import type { Logger } from "../base/logger.js";
import { openRequestScope } from "../base/request-scope.js";
import { modernHostOf } from "../protocol/modern-host.js";
import { routeMessage } from "../protocol/modern-protocol.js";
import { FAST_PATH_VERSIONS } from "../protocol/protocol-versions.js";
import { loadStatelessSdk } from "../protocol/sdk-loader.js";
import { answerFast, isNotification } from "../protocol/stateless-exchange.js";
import type { ToolRuntime } from "../tools/tool-runtime-contract.js";
import { refusedScopes } from "../tools/tool-scopes.js";
import { scoped, signedInto } from "./caller-scope.js";
import { answeredCors } from "./cors.js";
import { sendJson, sendJsonText } from "./json-response.js";
import { ANSWERED, readMessage, serveModern } from "./mcp-post.js";
import { checkHost, checkOrigin } from "./origin.js";
import { Readiness } from "./readiness.js";
import type { SignInPort } from "./sign-in-port.js";
import type { TelemetryPort } from "./telemetry-port.js";

export { sendJson } from "./json-response.js";

/** HTTP-level policy of the MCP endpoint. */
export interface HttpPolicy {
  /** Origins allowed besides the request's own host (normalised, e.g. `https://app.example`). */
  allowedOrigins: ReadonlySet<string>;
  /** When set, `Host` must be loopback or one of these host names (DNS-rebinding protection). */
  allowedHosts?: ReadonlySet<string>;
  /** @default 4194304 */
  maxRequestBytes?: number;
  /** Resource mode: every MCP request signs in with a bearer token from the operator's authorization server. */
  signIn?: SignInPort;
  /** `GET /ready`: what this replica needs to serve (without it, /ready answers as /health). */
  readiness?: Readiness;
  /** Metrics (`/metrics` with its token) and traces, when switched on. */
  telemetry?: TelemetryPort;
}

/** A running HTTP server and how to stop it. */
export interface RunningServer {
  url: URL;
  server: NodeHttpServer;
  /** Requests being answered right now. */
  active(): number;
  close(): Promise<void>;
}

/** The `/mcp` and `/health` request handler, for `node:http` or any framework that speaks its types. */
export function createRequestHandler(runtime: ToolRuntime, policy: HttpPolicy) {
  return scoped(async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (isHealthCheck(req)) return sendJson(res, 200, { status: "ok", server: runtime.identity.name, tools: runtime.tools.size });
    if (Readiness.asked(req)) return Readiness.answer(policy.readiness, res);
    if (policy.telemetry?.answersMetrics(req, res)) return;
    if (policy.signIn?.answersSignIn(req, res)) return;
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/mcp") return sendJson(res, 404, { error: "not found" });
    if (policy.telemetry) traced(policy.telemetry, req, res);
    if (!guardMcpRequest(req, res, policy, runtime.log)) return;
    if (policy.signIn && !(await signedInto(policy.signIn, req, res))) return;
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return sendJson(res, 405, {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Method not allowed: this server is stateless; use POST" },
      });
    }
    await handleMcpPost(runtime, policy, req, res);
  });
}

/** Telemetry on: the request's trace, in its scope, from now until its answer is sent. */
export function traced(telemetry: TelemetryPort, req: IncomingMessage, res: ServerResponse): void {
  const scope = openRequestScope();
  const trace = scope && telemetry.traceRequest(req, res);
  if (scope && trace) scope.trace = trace;
}

/** Whether a request is `GET` or `HEAD /health`. */
export function isHealthCheck(req: IncomingMessage): boolean {
  return (req.url ?? "/").split("?")[0] === "/health" && (req.method === "GET" || req.method === "HEAD");
}

/**
 * One stateless exchange. A 2026-07-28 message is answered by the modern exchange; a notification, or a plain
 * `initialize`, `tools/call`, `tools/list` or `ping` of the 2025 era directly (see stateless-exchange.ts); everything
 * else, and every request the SDK would refuse, goes to a fresh SDK server and transport.
 */
async function handleMcpPost(runtime: ToolRuntime, policy: HttpPolicy, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const message = await readMessage(req, res, policy.maxRequestBytes);
  if (message === ANSWERED) return;
  if (message === undefined) return sdkExchange(runtime, policy, req, res);
  openRequestScope()?.trace?.describe(message);
  if (policy.signIn && refusedForScope(runtime, policy.signIn, message, res)) return;
  const route = routeMessage(message, req.headers);
  if (route.era !== "legacy") return serveModern(modernHostOf(runtime), route, req, res);
  const fast = fastPathApplies(req);
  if (fast && isNotification(message)) {
    res.writeHead(202).end();
    return;
  }
  const answer = fast ? answerFast(runtime, message, req.headers) : undefined;
  if (answer === undefined) return sdkExchange(runtime, policy, req, res, message);
  sendJsonText(res, 200, await answer);
}

/** Resource mode: answers 403 `insufficient_scope` for a call the caller's token does not grant; true when it did. */
export function refusedForScope(runtime: ToolRuntime, guard: SignInPort, message: unknown, res: ServerResponse): boolean {
  const refused = refusedScopes(runtime, message);
  if (!refused) return false;
  guard.refuseScope(res, refused.caller, refused.missing);
  return true;
}

/**
 * Whether the SDK would let this POST through to its messages: it accepts JSON and SSE, and any protocol version it
 * names is one the fast path knows. Otherwise the SDK answers it (406, 400) in its own words.
 */
function fastPathApplies(req: IncomingMessage): boolean {
  const { accept, "mcp-protocol-version": version } = req.headers;
  return (
    accept?.includes("application/json") === true &&
    accept.includes("text/event-stream") &&
    (version === undefined || (typeof version === "string" && FAST_PATH_VERSIONS.has(version)))
  );
}

/** A fresh SDK server and transport for one request, JSON responses; `parsedBody` when the body was already read. */
async function sdkExchange(
  runtime: ToolRuntime,
  policy: HttpPolicy,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody?: unknown,
): Promise<void> {
  const { createMcpServer, StreamableHTTPServerTransport } = await loadStatelessSdk();
  const server = createMcpServer(runtime);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    ...(policy.maxRequestBytes ? { maxRequestBodySize: policy.maxRequestBytes } : {}),
  });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, parsedBody);
  } catch (error) {
    runtime.log.error("MCP request failed", { error: error instanceof Error ? error.stack : String(error) });
    if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null });
  }
}

/**
 * The Host and Origin checks every MCP endpoint shares: a refused request gets 403 with a JSON-RPC error body
 * that has no `id` (there is no request to answer yet). An allowed browser origin gets CORS, its preflight answered
 * here. Returns false when the request was answered (refused, or a preflight).
 */
export function guardMcpRequest(req: IncomingMessage, res: ServerResponse, policy: HttpPolicy, log: Logger): boolean {
  const host = req.headers.host;
  const hostCheck = policy.allowedHosts ? checkHost(host, policy.allowedHosts) : { ok: true as const };
  const verdict = hostCheck.ok ? checkOrigin(req.headers.origin, host, policy.allowedOrigins) : hostCheck;
  if (verdict.ok) return !answeredCors(req, res);
  log.warn("request refused", { reason: verdict.reason, origin: req.headers.origin, host });
  sendJson(res, 403, { jsonrpc: "2.0", error: { code: -32000, message: `Forbidden: ${verdict.reason}` } });
  return false;
}

/** The server could not listen (port in use, no permission, unknown host): one line, no stack. */
export class ListenError extends Error {
  override name = "ListenError";
  readonly code: string | undefined;
  /** `setting`: how the server's user sets its port and host (`PORT` and `HOST`, or the search server's flags). */
  constructor(host: string, port: number, cause: NodeJS.ErrnoException, setting = { port: "PORT", host: "HOST" }) {
    const reason =
      cause.code === "EADDRINUSE"
        ? `the port is already in use (set ${setting.port} to another one)`
        : cause.code === "EACCES"
          ? `permission denied (ports below 1024 need privileges; set ${setting.port})`
          : cause.code === "EADDRNOTAVAIL" || cause.code === "ENOTFOUND"
            ? `that address is not on this machine (check ${setting.host})`
            : (cause.code ?? cause.message);
    super(`cannot listen on ${host.includes(":") ? `[${host}]` : host}:${port}: ${reason}`);
    this.code = cause.code;
  }
}

/** How long an idle keep-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;

/**
 * Starts a node:http server with the handler on host:port (port 0 picks a free one); resolves once it listens. `setting`
 * names how the port and host are set, for a server that cannot listen.
 */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  host: string,
  port: number,
  onError: (error: unknown) => void,
  setting?: { port: string; host: string },
): Promise<RunningServer> {
  let closing = false;
  const inFlight = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    // While shutting down, every answer closes its connection, so keep-alive clients reconnect elsewhere.
    if (closing) res.setHeader("connection", "close");
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    handler(req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) sendJson(res, 500, { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" }, id: null });
    });
  });
  // Idle keep-alive connections stay open 65 s (Node's default is 5 s), past the 60 s idle time of common load
  // balancers: a client busy for seconds after a large tools/list (the SDK compiles every output schema) would
  // otherwise send its next request on a connection the server has just closed, and fail with ECONNRESET.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(new ListenError(host, port, error, setting)));
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error(`expected a TCP address, got ${String(address)}`);
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: new URL(`http://${shownHost}:${address.port}/mcp`),
    server,
    active: () => inFlight.size,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const res of inFlight) if (!res.headersSent) res.setHeader("connection", "close");
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
