import type { AuthDefinition } from "./credentials.js";
import { EnvironmentError, readServerEnvironment, type ServerEnvironment, type UpstreamDefaults } from "./env.js";
import { createRequestHandler, listen, type RunningServer } from "./http-server.js";
import { type Logger, stderrLogger } from "./logger.js";
import { createToolRuntime, type ServerIdentity } from "./mcp-server.js";
import { isLoopbackAddress } from "./origin.js";
import type { ToolDefinition } from "./tool.js";

/** What a generated server entry hands the runtime. */
export interface ServeOptions {
  identity: ServerIdentity;
  tools: readonly ToolDefinition[];
  environment: ServerEnvironment;
  log?: Logger;
  /** Security schemes and passthrough policy from the generated registry. */
  auth?: AuthDefinition;
  /** Where server-held credentials are read from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Injected for tests; the global `fetch` otherwise. */
  fetch?: typeof fetch;
}

/** Starts the MCP server over Streamable HTTP at `/mcp` with the given settings. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { environment: env } = options;
  const log = options.log ?? stderrLogger;
  const runtime = createToolRuntime({
    identity: options.identity,
    tools: options.tools,
    log,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.env ? { env: options.env } : {}),
    upstream: {
      baseUrl: env.apiBaseUrl,
      timeoutMs: env.timeoutMs,
      maxResponseBytes: env.maxResponseBytes,
      files: { ...(env.uploadDir ? { uploadDir: env.uploadDir } : {}), maxUploadBytes: env.maxUploadBytes },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
  const allowedHosts = isLoopbackAddress(env.host) ? new Set(env.publicUrl ? [env.publicUrl.hostname.toLowerCase()] : []) : undefined;
  const handler = createRequestHandler(runtime, {
    allowedOrigins: env.allowedOrigins,
    maxRequestBytes: env.maxRequestBytes,
    ...(allowedHosts ? { allowedHosts } : {}),
  });
  const running = await listen(handler, env.host, env.port, (error) =>
    log.error("request handler failed", { error: error instanceof Error ? error.stack : String(error) }),
  );
  const warming = new AbortController();
  running.server.once("close", () => warming.abort());
  void runtime.validators.warmUp(warming.signal);
  log.info("MCP server listening", {
    server: options.identity.name,
    url: running.url.href,
    tools: runtime.tools.size,
    upstream: env.apiBaseUrl.origin,
    credentials: runtime.credentials.configured(),
    passthrough: runtime.auth.passthrough,
  });
  return running;
}

/** Reads the environment, starts the server and stops it gracefully on SIGTERM/SIGINT; exits 1 on bad settings. */
export async function runServer(
  options: Omit<ServeOptions, "environment"> & { upstream?: UpstreamDefaults },
): Promise<RunningServer | undefined> {
  const log = options.log ?? stderrLogger;
  let environment: ServerEnvironment;
  let running: RunningServer;
  try {
    environment = readServerEnvironment(process.env, options.upstream);
    running = await startServer({ ...options, environment, log });
  } catch (error) {
    if (!(error instanceof EnvironmentError)) throw error;
    process.stderr.write(`${options.identity.name}: ${error.message.split("\n").join(`\n${options.identity.name}: `)}\n`);
    process.exitCode = 1;
    return undefined;
  }
  const stop = (signal: string) => {
    log.info("shutting down", { signal });
    const force = setTimeout(() => process.exit(0), 10_000);
    force.unref();
    void running.close().then(() => clearTimeout(force));
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return running;
}
