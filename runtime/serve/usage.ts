import type { ToolDefinition } from "../base/tool.js";
import type { AuthDefinition } from "../call/credentials.js";
import { suppliedValues, suppliedWhat } from "../call/server-parameters.js";
import type { ServerIdentity } from "../tools/tool-runtime-contract.js";
import type { UpstreamDefaults } from "./env.js";

/** What the command line of a generated server asks for. */
export type ServerCommand =
  | { kind: "serve"; stdio: boolean }
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "revoke-user"; subject: string }
  | { kind: "error"; message: string };

/** argv (without node and the script) → what to do; unknown arguments are an error naming them. */
export function parseServerArguments(argv: readonly string[]): ServerCommand {
  let stdio = false;
  for (const [index, argument] of argv.entries()) {
    if (argument === "--help" || argument === "-h" || argument === "help") return { kind: "help" };
    if (argument === "--version" || argument === "-v") return { kind: "version" };
    if (argument === "--revoke-user") {
      const subject = argv[index + 1];
      if (subject === undefined || subject === "" || argv.length > 2)
        return { kind: "error", message: "--revoke-user takes the user's subject (its sub, as the audit log names it) and nothing else" };
      return { kind: "revoke-user", subject };
    }
    if (argument === "--stdio") stdio = true;
    else return { kind: "error", message: `unknown argument ${JSON.stringify(argument.slice(0, 80))} (try --help)` };
  }
  return { kind: "serve", stdio };
}

const SETTINGS: readonly [string, string][] = [
  ["API_BASE_URL", "base URL of the upstream REST API, path included (e.g. https://api.example.com/v1)"],
  ["HOST", "interface to listen on (default 127.0.0.1; 0.0.0.0 in the Docker image)"],
  ["PORT", "port to listen on (default 3000)"],
  ["PUBLIC_URL", "where clients reach this server when it is behind a proxy (its origin is allowed)"],
  ["ALLOWED_ORIGINS", "comma-separated browser origins allowed to call /mcp (others get 403)"],
  ["MCP_TRANSPORT", "stdio to serve over stdin/stdout instead of HTTP (same as --stdio)"],
  [
    "MCP_SESSIONS",
    "stateless (default) or stateful; MCP_MAX_SESSIONS (100), MCP_SESSION_IDLE_SECONDS (1800), MCP_MAX_SESSIONS_PER_CLIENT (10; 0 behind a proxy)",
  ],
  ["UPSTREAM_AUTHORIZATION", "Authorization header sent upstream when there is no HTTP caller (stdio), or for signed-in callers"],
  [
    "AUTH_MODE",
    "passthrough (default: the caller's Authorization goes upstream), resource (callers sign in with AUTH_ISSUER; their token never goes upstream) or proxy (this server signs callers in at the API's own provider; each user's calls carry their own token)",
  ],
  ["AUTH_ISSUER", "resource mode: the authorization server whose tokens this server takes (https, or http on loopback)"],
  ["AUTH_RESOURCE", "resource mode: this server's canonical URI, the audience its tokens must name (default PUBLIC_URL + mcp)"],
  [
    "AUTH_SCOPES",
    "resource mode: scopes every call needs, besides those each operation needs (the document's, or the config's auth.scopes)",
  ],
  ["AUTH_LIST_ALL_TOOLS", "resource mode: on lists every tool, not only those the caller's token may call (default off)"],
  [
    "AUTH_CLIENT_ID",
    "resource mode: this server's own client at AUTH_ISSUER (with AUTH_CLIENT_SECRET), for introspection and exchange; proxy mode: your app at the provider, its callback PUBLIC_URL + /oauth/callback",
  ],
  ["AUTH_UPSTREAM", "resource mode: server (default: server-held credentials, UPSTREAM_AUTHORIZATION) or exchange (RFC 8693 per user)"],
  ["AUTH_EXCHANGE_AUDIENCE", "resource mode, exchange: the audience asked for (default the upstream's origin)"],
  [
    "AUTH_INTROSPECTION_CACHE_SECONDS",
    "resource mode, opaque tokens: how long an introspection answer is kept, so how long a revoked token may still work (default 0: asked at every request; at most 300)",
  ],
  ["AUTH_REQUIRE_AT_JWT", "resource mode: on takes only JWTs typed at+jwt (RFC 9068); off (default) also plain JWT, never an ID token"],
  ["AUTH_KEY", "proxy mode: 32 random bytes (openssl rand -base64 32) sealing its client ids and tokens, the same on every replica"],
  ["AUTH_PREVIOUS_KEY", "proxy mode: the key before a rotation, still accepted for what it sealed"],
  [
    "AUTH_PROVIDER_AUTHORIZATION_URL",
    "proxy mode: the provider's authorization endpoint (default the config's auth.provider, else the document's oauth2 authorization-code flow)",
  ],
  ["AUTH_PROVIDER_TOKEN_URL", "proxy mode: the provider's token endpoint (default the document's)"],
  ["AUTH_PROVIDER_SCOPES", "proxy mode: scopes asked of the provider on every sign-in, besides the client's"],
  ["AUTH_PROVIDER_CLIENT_AUTH", "proxy mode: basic (default) or post, how your app authenticates at the token endpoint"],
  ["AUTH_CLIENT_METADATA_HOSTS", "proxy mode: HOST:PORT entries whose client metadata documents may be on a private address"],
  [
    "AUTH_STATE_URL",
    "proxy mode: postgres:// database where replicas share used codes, refresh rotations and revocations (unset: this replica's memory; its driver: the config's server.include: [postgres])",
  ],
  ["MCP_SAMPLING", "off: discovery search never asks a client's model (sampling) to choose among its best matches (default on)"],
  [
    "MCP_CONFIRM",
    "required (default): a tool the config marks confirm is refused for a client that cannot ask its user; best-effort: it runs",
  ],
  ["MCP_STATE_KEY", "secret (32+ characters) sealing 2026-07-28 confirmations, the same on every replica (default: one per process)"],
  ["UPSTREAM_TIMEOUT_MS", "upstream call time limit (default 30000)"],
  ["MAX_REQUEST_BYTES", "largest MCP request body (default 4194304)"],
  ["MAX_RESPONSE_BYTES", "largest upstream response (default 10485760)"],
  ["UPLOAD_DIR", "the only folder file arguments may name by path (unset: base64 only)"],
  ["MAX_UPLOAD_BYTES", "largest file argument (default 26214400)"],
  [
    "METRICS_PORT",
    "Prometheus /metrics on a port of its own, on METRICS_HOST (default HOST); its package: the config's server.include: [metrics]",
  ],
  ["METRICS_TOKEN", "/metrics on the main port for a scraper sending Authorization: Bearer <token> (16 characters or more)"],
  [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OpenTelemetry traces over OTLP/HTTP to this collector (+ /v1/traces; or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER and the SDK's other variables apply; its packages: the config's server.include: [traces]",
  ],
  ["LOG_LEVEL", "debug, info (default), warn, error or silent; one line per tool call at info"],
  ["LOG_FORMAT", "json (default: one object a line) or text"],
];

/** The `--help` text: usage, every environment variable, and the credentials this server's schemes read. */
export function serverUsage(
  identity: ServerIdentity,
  upstream: UpstreamDefaults = {},
  auth?: AuthDefinition,
  tools: readonly ToolDefinition[] = [],
): string {
  const lines = [
    `${identity.title ?? identity.name} ${identity.version}: an MCP server generated by oapi-mcp-gen.`,
    "",
    "Usage: node dist/server.js [--stdio]",
    "  Serves MCP over Streamable HTTP at /mcp (GET /health and /ready answer too); --stdio serves one client on stdin/stdout.",
    "       node dist/server.js --revoke-user SUBJECT",
    "  Proxy mode: ends every sign-in of a user, on every replica within seconds (needs AUTH_STATE_URL).",
    "",
    "Environment:",
    ...SETTINGS.map(([name, text]) => `  ${name.padEnd(23)} ${text}`),
  ];
  if (upstream.defaultBaseUrl) lines.push(`  (API_BASE_URL defaults to ${upstream.defaultBaseUrl})`);
  const credentials = Object.entries(auth?.schemes ?? {}).flatMap(([scheme, definition]) =>
    Object.entries(definition.env).map(([role, variable]) => `  ${variable.padEnd(23)} ${role} of the "${scheme}" scheme (server-held)`),
  );
  if (credentials.length > 0) lines.push("", "Server-held credentials (optional):", ...credentials);
  const parameters = new Map<string, Set<string>>();
  for (const tool of tools)
    for (const value of suppliedValues(tool.http))
      if ("env" in value.source) parameters.set(value.source.env, (parameters.get(value.source.env) ?? new Set()).add(suppliedWhat(value)));
  if (parameters.size > 0)
    lines.push(
      "",
      "Parameters the server sends itself (a call that needs an unset one fails, naming it):",
      ...[...parameters].map(([variable, names]) => `  ${variable.padEnd(23)} the ${[...names].join(", ")}`),
    );
  return `${lines.join("\n")}\n`;
}
