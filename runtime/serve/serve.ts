import type { IncomingMessage, ServerResponse } from "node:http";
import { audit } from "../base/audit.js";
import { EnvironmentError } from "../base/environment-error.js";
import { type Logger, loggerFromEnvironment, stderrLogger } from "../base/logger.js";
import type { ToolDefinition } from "../base/tool.js";
import type { AuthDefinition } from "../call/credentials.js";
import type { CodeSettings } from "../code/code-settings.js";
import type { DiscoveryData } from "../discovery/discovery.js";
import {
  createRequestHandler,
  type HttpPolicy,
  isHealthCheck,
  ListenError,
  listen,
  type RunningServer,
  refusedForScope,
} from "../http/http-server.js";
import { sendJson } from "../http/json-response.js";
import { hostAllowList, isLoopbackAddress } from "../http/origin.js";
import { Readiness } from "../http/readiness.js";
import type { SessionLimits } from "../http/session-http.js";
import { modernHostOf } from "../protocol/modern-host.js";
import { SignInGuard } from "../sign-in/guard.js";
import { warnOpenWrites } from "../sign-in/open-writes.js";
import {
  openSignInState,
  type SignInSetup,
  scopesNamed,
  signInChecks,
  signInFor,
  tellSignIn,
  upstreamForSignedIn,
} from "../sign-in/settings.js";
import type { SignInState } from "../sign-in/state/sign-in-state.js";
import type { Telemetry } from "../telemetry/index.js";
import { createToolRuntime, type ServerIdentity, type ToolRuntime } from "../tools/tool-runtime.js";
import { readServerEnvironment, type ServerEnvironment, type UpstreamDefaults } from "./env.js";
import { openTelemetry } from "./open-telemetry.js";
import { endWithLauncher } from "./parent-watch.js";
import { parseServerArguments, serverUsage } from "./usage.js";

/** The tools, or how to load them: a generated server imports its tool modules once it listens. */
export type ToolSource = readonly ToolDefinition[] | (() => Promise<readonly ToolDefinition[]>);

/** What a generated server entry hands the runtime. */
export interface ServeOptions {
  identity: ServerIdentity;
  tools: ToolSource;
  environment: ServerEnvironment;
  log?: Logger;
  /** Security schemes and passthrough policy from the generated registry. */
  auth?: AuthDefinition;
  /** Where server-held credentials are read from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Injected for tests; the global `fetch` otherwise. */
  fetch?: typeof fetch;
  /** Discovery mode: the generated search index and listing (or how to load them, with the tools). */
  discovery?: DiscoveryData | (() => Promise<DiscoveryData>);
  /** Code mode: `run_code`, its budgets and write policy (with `replacesCall`, in place of `call_operation`). */
  code?: CodeSettings;
  /** Injected for tests: certificate authorities the proxy trusts when it fetches Client ID Metadata Documents. */
  trustedCa?: string;
  /** Injected for tests: how long a Client ID Metadata Document may take. @default 5000 */
  clientMetadataTimeoutMs?: number;
}

async function runtimeFor(options: ServeOptions, log: Logger, guard?: SignInGuard): Promise<ToolRuntime> {
  const { environment: env } = options;
  const [tools, discovery] = await Promise.all([
    typeof options.tools === "function" ? options.tools() : options.tools,
    typeof options.discovery === "function" ? options.discovery() : options.discovery,
  ]);
  // Discovery mode's search index and code mode's engine load only when a server is given them.
  const code = options.code;
  const coding = code ? await import("../code/index.js") : undefined;
  const codeTools = code && coding ? coding.codeOf(code) : undefined;
  // Programs checked before they run: the compiler loads now, so a deployment without it stops here, in one line.
  if (code?.typeCheck && coding) await coding.checkerFor(tools);
  const serving = discovery ? await import("../discovery/index.js") : undefined;
  const discoveryTools = discovery && serving ? serving.discoveryOf(discovery, serving.codeBeside(code)) : undefined;
  return createToolRuntime({
    identity: options.identity,
    tools,
    ...(discoveryTools ? { discovery: discoveryTools } : {}),
    ...(codeTools ? { code: codeTools } : {}),
    log,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(env.upstreamConfigured === false ? { forwardCaller: false } : {}),
    ...(env.samplingOff ? { samplingOff: true } : {}),
    ...(env.confirmBestEffort ? { confirmBestEffort: true } : {}),
    ...(env.stateKey ? { stateKey: env.stateKey } : {}),
    ...(guard
      ? {
          signIn: {
            listAllTools: guard.settings.listAllTools,
            upstreamAuthorization: upstreamForSignedIn(guard, env.upstreamAuthorization, log),
          },
        }
      : {}),
    upstream: {
      baseUrl: env.apiBaseUrl,
      timeoutMs: env.timeoutMs,
      maxResponseBytes: env.maxResponseBytes,
      ...(env.uploadDir ? { uploadDir: env.uploadDir } : {}),
      maxUploadBytes: env.maxUploadBytes,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The stateful handler: one SDK session per client (the SDK is loaded for it). */
async function sessionHandler(runtime: ToolRuntime, policy: HttpPolicy, limits: SessionLimits, log: Logger) {
  const { createMcpServer, SessionHttpHandler } = await import("../sdk.js");
  const { signIn } = policy;
  return new SessionHttpHandler(
    () => createMcpServer(runtime),
    () => ({ server: runtime.identity.name, tools: runtime.tools.size }),
    policy,
    limits,
    log,
    modernHostOf(runtime),
    signIn ? (message, res) => refusedForScope(runtime, signIn, message, res) : undefined,
  );
}

/** What sign-in is set up from, out of the serve options. */
function signInSetup(options: ServeOptions): SignInSetup {
  const env = options.environment;
  return {
    given: env.signIn,
    ...(options.auth ? { auth: options.auth } : {}),
    serverName: options.identity.name,
    apiBaseUrl: env.apiBaseUrl,
    ...(env.upstreamConfigured !== undefined ? { upstreamConfigured: env.upstreamConfigured } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.trustedCa ? { trustedCa: options.trustedCa } : {}),
    ...(options.clientMetadataTimeoutMs !== undefined ? { clientMetadataTimeoutMs: options.clientMetadataTimeoutMs } : {}),
  };
}

/**
 * Starts the MCP server over Streamable HTTP at `/mcp` (stateless by default, stateful when configured). With tools to
 * load, it listens first: `/health` answers at once (`"status": "loading"`) and MCP requests wait for the tools.
 */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { environment: env } = options;
  // Telemetry, when switched on, is loaded now (with its packages) and counts what the server's log says.
  const telemetry = await openTelemetry(env.telemetry, options.identity.name, env.host, options.log ?? stderrLogger);
  const log = telemetry?.log ?? options.log ?? stderrLogger;
  // Proxy mode keeps what must hold across replicas in its sign-in state (AUTH_STATE_URL), opened before it listens.
  const proxy = (env.signIn?.mode ?? options.auth?.mode) === "proxy";
  let state: SignInState | undefined;
  try {
    state = proxy ? await openSignInState(env.signIn?.stateUrl, log) : undefined;
    return await startWith(options, log, telemetry, state);
  } catch (error) {
    // Whatever stopped the start, nothing it opened keeps the process alive (a database pool, a metrics port).
    await state?.close();
    await telemetry?.close();
    throw error;
  }
}

/** startServer, once telemetry and the sign-in state (when there are) are open. */
async function startWith(
  options: ServeOptions,
  log: Logger,
  telemetry: Telemetry | undefined,
  state: SignInState | undefined,
): Promise<RunningServer> {
  const { environment: env } = options;
  const allowedHosts = await hostAllowList(env.host, env.publicUrl);
  // The proxy's metadata publishes the scopes the guard publishes (known once the tools are loaded).
  const signIn = signInFor({ ...signInSetup(options), ...(state ? { state } : {}) }, log, () => guard?.scopesPublished ?? []);
  const guard = signIn ? new SignInGuard(signIn.settings, options.fetch, log) : undefined;
  const policy: HttpPolicy = {
    allowedOrigins: env.allowedOrigins,
    maxRequestBytes: env.maxRequestBytes,
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(guard ? { signIn: guard } : {}),
    ...(telemetry ? { telemetry: telemetry.port } : {}),
    readiness: new Readiness([...signInChecks(guard, state), upstreamCheck(env.apiBaseUrl, options.fetch)]),
  };
  const loaded = runtimeFor(options, log, guard).then(async (runtime) => {
    guard?.publishScopes(scopesNamed(runtime));
    const sessions = env.sessions ? await sessionHandler(runtime, policy, env.sessions, log) : undefined;
    return { runtime, sessions, handle: sessions ? sessions.handle : createRequestHandler(runtime, policy) };
  });
  let ready: Awaited<typeof loaded> | undefined;
  const handler: Handler = async (req, res) => {
    if (ready) return ready.handle(req, res);
    if (isHealthCheck(req)) return sendJson(res, 200, { status: "loading", server: options.identity.name });
    if (Readiness.asked(req)) return sendJson(res, 503, { status: "not ready", checks: { tools: "loading" } });
    return (await loaded).handle(req, res);
  };
  const running = await listen(handler, env.host, env.port, (error) =>
    log.error("request handler failed", { error: error instanceof Error ? error.stack : String(error) }),
  );
  try {
    ready = await loaded;
  } catch (error) {
    await running.close();
    throw error;
  }
  const { runtime, sessions } = ready;
  const warming = new AbortController();
  running.server.once("close", () => warming.abort());
  // Once listening, validators compile one tool at a time while the server idles; a call of another tool compiles its own.
  void runtime.validators.warmUp(warming.signal, () => running.active() > 0);
  // Code mode's engine starts on a worker thread now, so the first run does not wait for it; it stops with the server.
  if (options.code) {
    const sandbox = await import("../code/index.js");
    void sandbox.warmSandbox(options.code);
    running.server.once("close", () => void sandbox.closeSandbox());
  }
  if (signIn && guard)
    tellSignIn(
      signIn,
      guard,
      runtime,
      {
        exchange: env.signIn?.upstream === "exchange",
        upstreamAuthorization: env.upstreamAuthorization,
        ...(state ? { state: state.location } : {}),
      },
      log,
    );
  log.info("MCP server listening", {
    server: options.identity.name,
    url: running.url.href,
    tools: runtime.tools.size,
    sessions: env.sessions ? "stateful" : "stateless",
    upstream: `${env.apiBaseUrl.origin}${env.apiBaseUrl.pathname}`,
    credentials: runtime.credentials.configured(),
    ...(runtime.parameters.configured().length > 0 ? { parameters: runtime.parameters.configured() } : {}),
    ...(guard ? { signIn: signIn?.proxy ? "proxy" : "resource" } : { passthrough: runtime.auth.passthrough }),
  });
  tellConfirmation(runtime, env.sessions !== undefined, log);
  warnUnsetParameters(runtime, log);
  if (guard) warnOpenWrites(runtime, guard.settings.requiredScopes, log);
  tellCredentialReach(runtime, log, options.env ?? process.env);
  const { passthrough } = runtime.auth;
  const forwards = env.upstreamConfigured !== false && (passthrough.authorization || passthrough.headers.length > 0);
  warnClearTextUpstream(env.apiBaseUrl, runtime, log, forwards);
  if (env.upstreamAuthorization !== undefined && !guard)
    log.warn(
      "UPSTREAM_AUTHORIZATION is set but not sent: over HTTP in passthrough each caller's own Authorization goes upstream (the variable serves stdio, and signed-in callers in resource mode); set a scheme's variable for a server-held credential",
      {},
    );
  if (runtime.credentials.configured().length > 0 && !guard) {
    log.warn(
      "server-held credentials serve every caller of /mcp, which has no authentication of its own: keep it on loopback or behind a proxy that authenticates callers",
      {
        credentials: runtime.credentials.configured(),
      },
    );
  }
  if (env.upstreamConfigured === false) {
    log.warn("caller credentials are not forwarded: the upstream URL comes from the OpenAPI document alone; set API_BASE_URL", {
      upstream: env.apiBaseUrl.origin,
    });
  }
  return {
    ...running,
    close: async () => {
      await sessions?.close();
      await running.close();
      await state?.close();
      await telemetry?.close();
    },
  };
}

/**
 * What the server-held credentials reach: a warning when they go with under half of the operations (the document
 * declares security on few), and which operations carry them instead of the caller's Authorization.
 */
function tellCredentialReach(runtime: ToolRuntime, log: Logger, env: NodeJS.ProcessEnv): void {
  // A variable of a scheme no operation here declares is read by nothing: say so rather than leave calls to fail.
  for (const [scheme, variables] of Object.entries(runtime.auth.undeclared ?? {})) {
    const set = variables.filter((variable) => env[variable]?.trim());
    if (set.length > 0)
      log.warn(
        `${set.join(", ")} ${set.length === 1 ? "is" : "are"} set, but no operation of this server declares ${scheme}, so it is never sent; set auth.apply: all in the config and generate again to send it with every operation`,
        { scheme, variables: set },
      );
  }
  const credentials = runtime.credentials.configured();
  if (credentials.length === 0) return;
  const operations = [...runtime.tools.values()];
  const reached = operations.filter((tool) => runtime.credentials.reaches(tool.security)).length;
  if (runtime.auth.apply !== "all" && reached * 2 < operations.length) {
    log.warn(
      "the server-held credential goes only with the operations whose document declares its security; set auth.apply: all in the config and generate again to send it with every operation",
      { credentials, reaches: reached, operations: operations.length },
    );
  }
  if (runtime.auth.passthrough.authorization && reached > 0 && runtime.auth.prefer !== "caller") {
    log.info(
      "one identity per call: where a server-held credential applies, the caller's Authorization is not forwarded (auth.prefer: caller sends the caller's instead)",
      { operations: reached },
    );
  }
}

/** One warning naming the environment variables of server-supplied parameters that are not set. */
function warnUnsetParameters(runtime: ToolRuntime, log: Logger): void {
  const unset = runtime.parameters.configured().filter((entry) => !entry.set);
  if (unset.length === 0) return;
  log.warn("parameters the server supplies are not set; calls that need them fail until they are", {
    variables: unset.map((entry) => entry.variable),
  });
}

/** One warning when credentials would cross the network in clear text: a plain `http:` upstream beyond loopback. */
function warnClearTextUpstream(upstream: URL, runtime: ToolRuntime, log: Logger, callerCredentials: boolean): void {
  if (upstream.protocol !== "http:" || isLoopbackAddress(upstream.hostname)) return;
  if (runtime.credentials.configured().length === 0 && !callerCredentials) return;
  log.warn(
    "credentials go to the upstream in clear text: API_BASE_URL is plain http beyond loopback; use https unless the network between is private",
    {
      upstream: upstream.origin,
    },
  );
}

/** Serves the tools over stdio for clients that launch servers as processes; logs stay on stderr. */
export async function startStdioServer(options: ServeOptions): Promise<{ close(): Promise<void> }> {
  const log = options.log ?? stderrLogger;
  const runtime = await runtimeFor(options, log);
  const authorization = options.environment.upstreamAuthorization;
  const [{ createMcpServer }, { StdioServerTransport }, { serveModernOnStdio }, { modernHostOf }] = await Promise.all([
    import("../protocol/mcp-server.js"),
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("../protocol/modern-stdio.js"),
    import("../protocol/modern-host.js"),
  ]);
  const server = createMcpServer(runtime, authorization ? { authorization } : {});
  const transport = new StdioServerTransport();
  await server.connect(transport);
  serveModernOnStdio(transport, modernHostOf(runtime), authorization ? { authorization } : {});
  void runtime.validators.warmUp();
  log.info("MCP server on stdio", {
    server: options.identity.name,
    tools: runtime.tools.size,
    upstream: `${options.environment.apiBaseUrl.origin}${options.environment.apiBaseUrl.pathname}`,
    ...(runtime.parameters.configured().length > 0 ? { parameters: runtime.parameters.configured() } : {}),
  });
  warnUnsetParameters(runtime, log);
  tellCredentialReach(runtime, log, options.env ?? process.env);
  warnClearTextUpstream(options.environment.apiBaseUrl, runtime, log, authorization !== undefined);
  return { close: () => server.close() };
}

/**
 * Reads the command line and the environment and serves over HTTP (or stdio with `--stdio` or `MCP_TRANSPORT=stdio`);
 * `--help` lists the settings; stops gracefully on SIGTERM/SIGINT; exits 1 with one line on bad arguments or settings.
 */
export async function runServer(
  options: Omit<ServeOptions, "environment"> & { upstream?: UpstreamDefaults; argv?: readonly string[] },
): Promise<{ close(): Promise<void> } | undefined> {
  const configured = options.log ?? loggerFromEnvironment(process.env);
  const command = parseServerArguments(options.argv ?? process.argv.slice(2));
  const name = options.identity.name;
  if (command.kind === "help") {
    const tools = typeof options.tools === "function" ? await options.tools() : options.tools;
    process.stdout.write(serverUsage(options.identity, options.upstream, options.auth, tools));
    return undefined;
  }
  if (command.kind === "version") {
    process.stdout.write(`${name} ${options.identity.version}\n`);
    return undefined;
  }
  if (command.kind === "revoke-user") return revokeUser(command.subject, name, configured);
  if (command.kind === "error") {
    process.stderr.write(`${name}: ${command.message}\n`);
    process.exitCode = 1;
    return undefined;
  }
  if ("problem" in configured) {
    process.stderr.write(`${name}: ${configured.problem}\n`);
    process.exitCode = 1;
    return undefined;
  }
  const log = configured;
  const stdio = command.stdio || process.env.MCP_TRANSPORT === "stdio";
  let running: { close(): Promise<void> };
  let drainMs: number;
  try {
    const environment = readServerEnvironment(process.env, options.upstream);
    // In-flight calls are answered on shutdown: they get as long as an upstream call may take, and a little more.
    drainMs = environment.timeoutMs + 5_000;
    running = stdio ? await startStdioServer({ ...options, environment, log }) : await startServer({ ...options, environment, log });
  } catch (error) {
    if (!(error instanceof EnvironmentError || error instanceof ListenError)) throw error;
    process.stderr.write(`${name}: ${error.message.split("\n").join(`\n${name}: `)}\n`);
    process.exitCode = 1;
    return undefined;
  }
  const stop = (signal: string) => {
    log.info("shutting down", { signal });
    const force = setTimeout(() => process.exit(0), drainMs);
    force.unref();
    // Drained: exit now rather than wait for idle timers and pooled upstream connections to wind down.
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  endWithLauncher(stop);
  return running;
}

/**
 * `--revoke-user SUBJECT`: ends every sign-in of a user issued until now, in the state every replica shares
 * (`AUTH_STATE_URL`); each replica refuses the user's tokens within seconds, and the user signs in again to go on.
 */
async function revokeUser(subject: string, name: string, configured: Logger | { problem: string }): Promise<undefined> {
  const log = "problem" in configured ? stderrLogger : configured;
  const url = process.env.AUTH_STATE_URL?.trim();
  if (!url) {
    process.stderr.write(`${name}: --revoke-user needs AUTH_STATE_URL, the database every replica shares sign-in state in\n`);
    process.exitCode = 1;
    return undefined;
  }
  try {
    const state = await openSignInState(url, log);
    try {
      await state.revokeSubject(subject);
    } finally {
      await state.close();
    }
  } catch (error) {
    process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    return undefined;
  }
  audit(log, { event: "revoked", what: "user", by: "operator", user: subject });
  process.stdout.write(
    `${name}: every sign-in of ${JSON.stringify(subject)} until now is revoked; every replica refuses its tokens within seconds\n`,
  );
  return undefined;
}

/** The upstream answers at all (any HTTP status): a replica that cannot reach it is not ready. */
function upstreamCheck(apiBaseUrl: URL, fetchFn: typeof fetch = fetch) {
  return {
    name: "upstream",
    check: async () => {
      const answer = await fetchFn(apiBaseUrl, { method: "HEAD", redirect: "manual", signal: AbortSignal.timeout(3_000) }).catch(
        (error: unknown) => {
          const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
          throw new Error(`unreachable (${cause}); check API_BASE_URL`);
        },
      );
      await answer.body?.cancel();
    },
  };
}

/** Says at start which tools the user confirms and how, and warns when they may run unasked or can rarely be asked. */
function tellConfirmation(runtime: ToolRuntime, sessions: boolean, log: Logger): void {
  const asking = [...runtime.tools.values()].filter((tool) => tool.confirm).map((tool) => tool.name);
  if (asking.length === 0) return;
  if (runtime.confirmBestEffort)
    log.warn("tools the user confirms run unasked for clients that cannot be asked (MCP_CONFIRM=best-effort)", { tools: asking });
  else
    log.info("the user confirms each call of these tools; clients that cannot be asked are refused", {
      tools: asking,
      // Stateless HTTP carries no request back in the 2025 protocol: there only 2026-07-28 clients can be asked.
      asks: sessions
        ? "elicitation in a session, or input_required (2026-07-28)"
        : "input_required (2026-07-28) only; MCP_SESSIONS=stateful asks 2025 clients too",
    });
}
