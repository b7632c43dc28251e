import {
  type AuthDefinition,
  type SecuritySchemeDefinition as SchemeModel,
  scopesOf,
  setOwn,
  someOf,
  suppliedValues,
  type UpstreamDefaults,
} from "oapi-mcp-gen-runtime";
import { type GenerationPaths, imageName, overlayArguments, shellWord } from "./deploy.js";
import { GENERATED_MARKDOWN_HEADER } from "./header.js";
import { type ListingReadme, listingSection } from "./listing.js";
import { oneLine } from "./literal.js";
import type { ToolView } from "./tool-view.js";

/** What the README says about the server. */
export interface ReadmeFacts {
  name: string;
  version: string;
  title?: string;
  document: { title: string; version: string };
  tools: readonly ToolView[];
  upstream: UpstreamDefaults;
  schemes: Record<string, SchemeModel>;
  passthrough: AuthDefinition["passthrough"];
  /** The config's `auth.mode`, when it is `resource`. */
  signInMode?: "resource" | "proxy";
  /** Whose credential a call carries when both could go (`auth.prefer`); the server's unless `caller`. */
  prefer?: AuthDefinition["prefer"];
  /** Where the generator read and wrote, as typed in the user's project. */
  paths: GenerationPaths;
  /** Discovery mode: the operations `tools/list` shows beside the three discovery tools. */
  discovery?: { alwaysList: readonly string[] };
  /** Tools mode: some listing is cut to fit, so `tools/list` also shows `describe_operation`. */
  describes?: boolean;
  /** Code mode: `run_code` beside the other tools (or, `instead`, in place of `call_operation`), an example program, and what it may change. */
  code?: {
    instead: boolean;
    example: string;
    writes: boolean | readonly string[];
    timeoutMs: number;
    memoryMb: number;
    maxCalls: number;
    typeCheck: boolean;
  };
  /** Where the runtime comes from when not from the registry: a copy in `vendor/`, or its tarball beside the package. */
  runtime?: { source: "vendor" | "tarball"; tarball: string };
  /** How the server is listed: npm and the MCP Registry (server.json), its deployment, its desktop bundle. */
  listing: ListingReadme;
  /** What curated the document beside the config: its overlays (as the config and the command line name them) and the operations it marks `x-mcp`. */
  curation?: { overlays: readonly string[]; marked: readonly string[] };
}

/** What `run_code` does on this server, with a program over its own operations. */
function codeSection(code: NonNullable<ReadmeFacts["code"]>): string[] {
  const writes =
    code.writes === true
      ? "Programs may call every operation, including those that change data."
      : Array.isArray(code.writes) && code.writes.length > 0
        ? `Programs may change data only through ${code.writes.map((name) => `\`${name}\``).join(", ")}; other operations that change data throw.`
        : "Programs only read: an operation that changes data throws (`code.allowWrites` in the config lets them).";
  const fence = "`".repeat(Math.max(3, ...[...code.example.matchAll(/`+/g)].map((run) => run[0].length + 1)));
  return [
    `Code mode: \`tools/list\` ${code.instead ? "shows `search_operations` and `describe_operation`, which find and read the operations below, and" : "also shows"} \`run_code\`, which runs a short JavaScript program (TypeScript annotations allowed) in a WebAssembly sandbox on a worker thread. Each operation below is an async function \`api.<tool>(args)\`; \`return\` a value and \`console.log\` as you go. A run has ${code.timeoutMs / 1000} s, ${code.memoryMb} MB and ${code.maxCalls} calls, and no network, files or timers besides \`api\`. ${writes} For example:`,
    "",
    `${fence}ts`,
    code.example,
    fence,
    "",
    ...(code.typeCheck
      ? [
          "Each program is type-checked against the operations' argument types first (`code.typeCheck`): a misspelt operation or argument, a wrongly typed or missing one comes back as the run's error with its line, and nothing is called. The check needs `typescript`, a dependency of this package for that reason (about 23 MB installed); it adds about 3 ms to a run.",
          "",
        ]
      : []),
  ];
}

/** Document text as inert Markdown: one line, markup characters escaped, bounded length. */
export function markdownText(text: string, max = 160): string {
  const line = text
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .replace(/[\\`*_[\]<>|#]/g, (char) => `\\${char}`)
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function hints(tool: ToolView): string {
  const { readOnlyHint, destructiveHint, idempotentHint } = tool.annotations;
  return [
    readOnlyHint ? "read-only" : "writes",
    destructiveHint ? "destructive" : "",
    idempotentHint ? "idempotent" : "",
    tool.confirm ? "the user confirms" : "",
  ]
    .filter(Boolean)
    .join(", ");
}

/** What the README says of what curated the document beside the config (overlays, `x-mcp` marks), when anything did. */
function curationLines(curation: ReadmeFacts["curation"]): string[] {
  if (!curation || (curation.overlays.length === 0 && curation.marked.length === 0)) return [];
  const overlays = curation.overlays.map((file) => `\`${markdownText(file, 200)}\``).join(", ");
  const marked = curation.marked.map((id) => `\`${markdownText(id, 100)}\``).join(", ");
  return [
    [
      curation.overlays.length > 0
        ? `The document is curated by OpenAPI Overlays, applied in order before anything reads it: ${overlays}; they are inputs of the check like the document and the config.`
        : "",
      curation.marked.length > 0
        ? `The document marks ${curation.marked.length === 1 ? "an operation" : "operations"} for MCP (\`x-mcp\`: name, title, description, hidden, scopes, confirm), beneath the config's own overrides: ${marked}.`
        : "",
    ]
      .filter(Boolean)
      .join(" "),
    "",
  ];
}

/** What the README says of the tools whose calls the user confirms (config `confirm`), when there are any. */
function confirmSection(tools: readonly ToolView[]): string[] {
  const asking = tools.filter((tool) => tool.confirm);
  if (asking.length === 0) return [];
  const names = asking.map((tool) => `\`${tool.name}\``).join(", ");
  return [
    `The user confirms every call of ${names} before it is sent (the config's \`confirm\`, or the document's \`x-mcp\`): the server shows the operation and its arguments and asks through MCP elicitation while the call waits (stdio, or \`MCP_SESSIONS=stateful\`), or, for a 2026-07-28 client, answers \`input_required\` and acts on the retry. A decline sends nothing. A client that can be asked neither way (no elicitation, or stateless HTTP in the 2025 protocol) is refused, unless \`MCP_CONFIRM=best-effort\`; a \`run_code\` program can ask only while it runs.`,
    "",
  ];
}

function credentialRows(schemes: Record<string, SchemeModel>): string[] {
  const rows: string[] = [];
  for (const [name, scheme] of Object.entries(schemes)) {
    const how =
      scheme.type === "apiKey"
        ? `API key in the ${scheme.in} ${markdownText(scheme.name ?? "")}`
        : scheme.type === "http" && scheme.scheme === "basic"
          ? "HTTP Basic"
          : scheme.type === "oauth2"
            ? "a bearer token, or OAuth2 client credentials (token fetched, cached and refreshed)"
            : "a bearer token";
    // An API key in the Authorization header is the header's whole value: the API may want `Bearer <key>` there.
    const header = scheme.type === "apiKey" && scheme.in === "header" && scheme.name?.toLowerCase() === "authorization";
    for (const [role, variable] of Object.entries(scheme.env))
      rows.push(
        `| \`${variable}\` | ${markdownText(name)} (${role}) | ${how}: ${header ? "the whole header value, as the API wants it (often `Bearer <token>`), sent exactly as set" : valueForm(role)} |`,
      );
  }
  return rows;
}

/** What a credential variable holds, so nobody writes `Bearer ` where the server adds it (or leaves it out of a key). */
function valueForm(role: string): string {
  switch (role) {
    case "apiKey":
      return "the key as the API takes it, sent exactly as set (nothing added)";
    case "token":
      return "the token alone, without `Bearer ` (the server sends `Bearer <token>`)";
    case "username":
    case "password":
      return "plain text (the server encodes the pair)";
    case "tokenUrl":
      return "the token endpoint's URL";
    default:
      return "as the API's OAuth2 app gives it";
  }
}

/** Parameters the server fills from its environment (config `parameters`): a row per variable. */
function parameterRows(tools: readonly ToolView[]): string[] {
  const users = new Map<string, { names: Set<string>; tools: number }>();
  for (const tool of tools) {
    const supplied = suppliedValues(tool).flatMap((value): [variable: string, what: string][] =>
      "env" in value.source ? [[value.source.env, `${value.in} ${cellCode(value.name, 60)}`]] : [],
    );
    for (const variable of new Set(supplied.map(([env]) => env))) {
      const entry = users.get(variable) ?? { names: new Set<string>(), tools: 0 };
      for (const [env, what] of supplied) if (env === variable) entry.names.add(what);
      entry.tools++;
      users.set(variable, entry);
    }
  }
  return [...users].map(
    ([variable, { names, tools: count }]) => `| \`${variable}\` | ${[...names].join(", ")} | ${count} tool${count === 1 ? "" : "s"} |`,
  );
}

/** A path or command inside a Markdown code span or block: one line, no backticks. */
function code(text: string): string {
  return oneLine(text, "?").replaceAll("`", "?");
}

/** A code span inside a table cell: a `|` would end the cell (and the span) even there, so it is escaped. */
function cellCode(text: string, max = 160): string {
  const shown = code(text);
  return `\`${(shown.length > max ? `${shown.slice(0, max - 1)}…` : shown).replaceAll("|", "\\|")}\``;
}

/** The environment a stdio client sets: the upstream and one way to authenticate. */
function stdioEnvironment(facts: ReadmeFacts): Record<string, string> {
  const env: Record<string, string> = { API_BASE_URL: facts.upstream.defaultBaseUrl ?? "https://api.example.com" };
  const first = Object.values(facts.schemes)[0];
  for (const tool of facts.tools)
    for (const value of suppliedValues(tool)) if ("env" in value.source) setOwn(env, value.source.env, `<${value.name}>`);
  if (!first) return { ...env, UPSTREAM_AUTHORIZATION: "Bearer <token>" };
  const roles = first.type === "oauth2" ? { token: first.env.token } : first.env;
  for (const [role, variable] of Object.entries(roles)) if (variable) env[variable] = `<${role}>`;
  return env;
}

/** The paragraph that stands for the tool table in the README's text: the table is laid out apart (see README). */
export const TOOL_TABLE_LINE = "oapi-mcp-gen-tool-table";

/** The README's text with the tool table as the line TOOL_TABLE_LINE, and the table's rows cell by cell. */
export interface ReadmeSource {
  text: string;
  table: string[][];
}

/** The README's tool table: a header, then a row a tool. */
function toolTable(tools: readonly ToolView[]): string[][] {
  return [
    ["tool", "operation", "hints"],
    ...tools.map((tool) => [`\`${tool.name}\``, `${tool.method.toUpperCase()} ${cellCode(tool.path)}`, hints(tool)]),
  ];
}

/** A table's rows as Markdown, cells unpadded. */
function markdownTable(rows: readonly (readonly string[])[]): string {
  const [header = [], ...body] = rows;
  return [header, header.map(() => "---"), ...body].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

/** The README's text with its tool table written in, unaligned, where TOOL_TABLE_LINE stands. */
export function withToolTable(source: ReadmeSource): string {
  return source.text.replace(`\n${TOOL_TABLE_LINE}\n`, () => `\n${markdownTable(source.table)}\n`);
}

/** The generated server's README: tools, running it, environment, credentials, clients, deployment and CI. */
export function readmeSource(facts: ReadmeFacts): ReadmeSource {
  const title = facts.title ?? facts.name;
  const base = facts.upstream.defaultBaseUrl ? cellCode(facts.upstream.defaultBaseUrl, 300) : "none: required";
  const credentials = credentialRows(facts.schemes);
  const parameters = parameterRows(facts.tools);
  const out = code(facts.paths.out);
  const entry = `/absolute/path/to/${out}/dist/server.js`;
  // Shell lines name the paths as one shell word each: a path with `$(…)` or `;` in it stays a path.
  const shellOut = shellWord(facts.paths.out);
  const check = [
    "npx oapi-mcp-gen",
    shellWord(facts.paths.spec),
    ...(facts.paths.config ? ["--config", shellWord(facts.paths.config)] : []),
    ...overlayArguments(facts.paths),
    "--out",
    shellOut,
    ...(facts.runtime ? ["--runtime", facts.runtime.source] : []),
    "--check",
  ].join(" ");
  const lines = [
    `# ${markdownText(title)} MCP server`,
    "",
    `Generated by [oapi-mcp-gen](https://www.npmjs.com/package/oapi-mcp-gen) from *${markdownText(facts.document.title || facts.name)}* ${markdownText(facts.document.version)}: ${facts.tools.length} tools over Streamable HTTP at \`/mcp\` (or stdio). Server \`${facts.name}\` ${markdownText(facts.version)}.`,
    "",
    ...(credentials.length > 0
      ? [
          "> **Warning:** without `AUTH_MODE=resource` or `proxy`, `/mcp` has no authentication of its own. When this server holds an API credential (the variables under *Credentials*), anyone who can reach its port calls the API with it: keep it on loopback, have callers sign in (*Deploy*), or put it behind a proxy that authenticates them.",
          "",
        ]
      : []),
    "## Tools",
    "",
    ...(facts.discovery
      ? [
          `Discovery mode: \`tools/list\` shows \`search_operations\`, \`describe_operation\` and \`call_operation\`${facts.discovery.alwaysList.length > 0 ? `, and ${facts.discovery.alwaysList.map((name) => `\`${name}\``).join(", ")}` : ""}; the operations below are found with \`search_operations\` and run with \`call_operation\`.`,
          "",
        ]
      : []),
    ...(facts.describes
      ? [
          "Some tools are listed briefly, each within about 14 KB of `tools/list` (Stripe-sized schemas are cut to fit): `tools/list` also shows `describe_operation` (`name`, optional `at`), which shows any tool whole, part by part.",
          "",
        ]
      : []),
    ...(facts.code ? codeSection(facts.code) : []),
    ...confirmSection(facts.tools),
    TOOL_TABLE_LINE,
    "",
    "## Run",
    "",
    facts.runtime?.source === "vendor"
      ? "This folder is its own npm package (ESM, whatever your project is), depending only on `oapi-mcp-gen-runtime`, which it carries in `vendor/oapi-mcp-gen-runtime` (generated with `--runtime vendor`): `npm install` needs nothing of ours from a registry, only the runtime's own dependencies."
      : facts.runtime?.source === "tarball"
        ? `This folder is its own npm package (ESM, whatever your project is), depending only on \`oapi-mcp-gen-runtime\` from its packed tarball (generated with \`--runtime tarball\`): put \`${facts.runtime.tarball}\` (\`npm pack\` of the runtime) in this folder and commit it; \`npm install\` and the image install it from there.`
        : "This folder is its own npm package (ESM, whatever your project is), depending only on `oapi-mcp-gen-runtime` (while that package is not on your registry, generate with `--runtime vendor`, which puts it in this folder):",
    "",
    "```sh",
    `cd ${shellOut}`,
    "npm install && npm run build                              # compiles to dist/ (TypeScript is a dev dependency)",
    "API_BASE_URL=https://api.example.com npm start            # HTTP: http://127.0.0.1:3000/mcp",
    "API_BASE_URL=https://api.example.com node dist/server.js --stdio  # stdio, for clients that launch servers",
    "node dist/server.js --help                                # every setting",
    "```",
    "",
    "| variable | meaning | default |",
    "|---|---|---|",
    `| \`API_BASE_URL\` | upstream base URL; operation paths are appended to it | ${base} |`,
    "| `HOST` / `PORT` | where `/mcp` listens; bound to loopback, only loopback `Host` headers are accepted | `127.0.0.1` / `3000` |",
    "| `PUBLIC_URL` | the URL clients use behind a proxy: its origin and host are allowed | — |",
    "| `ALLOWED_ORIGINS` | comma-separated browser origins allowed to call `/mcp` (others get 403) | — |",
    "| `MCP_TRANSPORT` | `stdio` serves one client on stdin/stdout (same as `--stdio`) | HTTP |",
    "| `MCP_SESSIONS` | `stateful` keeps SDK sessions (`MCP_MAX_SESSIONS`, `MCP_SESSION_IDLE_SECONDS`) | `stateless` |",
    "| `UPSTREAM_TIMEOUT_MS` / `MAX_RESPONSE_BYTES` / `MAX_REQUEST_BYTES` | limits (base64 file arguments count against `MAX_REQUEST_BYTES`) | `30000` / `10485760` / `4194304` |",
    '| `UPLOAD_DIR` / `MAX_UPLOAD_BYTES` | the only folder `{"path": …}` file arguments may name; upload cap | unset (base64 only) / `26214400` |',
    "| `UPSTREAM_AUTHORIZATION` | Authorization sent upstream in stdio mode (no HTTP caller), and for signed-in callers in resource mode | — |",
    `| \`AUTH_MODE\` | \`passthrough\`: the caller's \`Authorization\` goes upstream (a person's own local client); \`resource\`: callers sign in with your authorization server (below); \`proxy\`: this server is the clients' authorization server, in front of the API's own sign-in, and each user's calls carry their own token | \`${facts.signInMode ?? "passthrough"}\` |`,
    "| `AUTH_ISSUER` / `AUTH_RESOURCE` | resource mode: the authorization server whose tokens this server takes; this server's canonical URI, the audience tokens must name | — / `PUBLIC_URL` + `mcp` |",
    "| `AUTH_SCOPES` / `AUTH_LIST_ALL_TOOLS` | resource mode: scopes every call needs (besides those each operation needs: the document's, or the config's `auth.scopes`); `on` lists every tool, not only those the token may call | — / `off` |",
    "| `AUTH_CLIENT_ID` / `AUTH_CLIENT_SECRET` | resource mode: this server's own client at `AUTH_ISSUER`, to introspect opaque tokens and exchange tokens; proxy mode: your app at the API's sign-in, whose callback URL is `PUBLIC_URL` + `/oauth/callback` | — |",
    "| `AUTH_UPSTREAM` / `AUTH_EXCHANGE_AUDIENCE` | resource mode: `server` (the credentials below, or `UPSTREAM_AUTHORIZATION`) or `exchange` (each user's token exchanged at `AUTH_ISSUER`, RFC 8693, for this audience) | `server` / the upstream's origin |",
    "| `AUTH_INTROSPECTION_CACHE_SECONDS` / `AUTH_REQUIRE_AT_JWT` | resource mode: how long an opaque token's introspection answer is kept, so how long a token revoked at the authorization server may still work (at most 300); `on` takes only JWTs typed `at+jwt` (RFC 9068; an ID token is never taken) | `0` (asked at every request) / `off` |",
    "| `AUTH_KEY` / `AUTH_PREVIOUS_KEY` | proxy mode: 32 random bytes (`openssl rand -base64 32`) that seal its client ids and tokens, the same on every replica; the key before a rotation, still accepted | — |",
    "| `AUTH_PROVIDER_AUTHORIZATION_URL` / `AUTH_PROVIDER_TOKEN_URL` / `AUTH_PROVIDER_SCOPES` / `AUTH_PROVIDER_CLIENT_AUTH` | proxy mode: the API's sign-in endpoints (else the config's `auth.provider`, else the document's oauth2 authorization-code flow); scopes asked on every sign-in; how your app authenticates there, `basic` or `post` | the config or the document / — / `basic` |",
    "| `AUTH_CLIENT_METADATA_HOSTS` | proxy mode: `HOST:PORT` entries whose Client ID Metadata Documents may be fetched although they resolve to a private address | — |",
    "| `AUTH_STATE_URL` | proxy mode: a `postgres://` database where replicas share used codes, refresh rotations and revocations (needed by more than one replica, and to keep revocations across a restart; its driver comes with the config's `server.include: [postgres]`); `node dist/server.js --revoke-user SUBJECT` ends a user's sign-ins there | this replica's memory |",
    "| `METRICS_PORT` / `METRICS_HOST` / `METRICS_TOKEN` | Prometheus `/metrics` on a port of its own, or on the main port for a scraper sending `Authorization: Bearer <METRICS_TOKEN>` (its package comes with the config's `server.include: [metrics]`) | off / `HOST` / — |",
    "| `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_SERVICE_NAME` | OpenTelemetry traces over OTLP/HTTP to this collector (`/v1/traces` appended; or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`); the SDK's own variables (`OTEL_TRACES_SAMPLER`, `OTEL_EXPORTER_OTLP_HEADERS`) apply (its packages come with the config's `server.include: [traces]`) | off / the server's name |",
    ...(facts.discovery
      ? [
          "| `MCP_SAMPLING` | `off`: `search_operations` never asks the client's model to choose among its best matches (it asks only clients that offer sampling, over stdio or stateful sessions, and waits at most 30 s for all its questions) | `on` |",
        ]
      : []),
    ...(facts.tools.some((tool) => tool.confirm)
      ? [
          "| `MCP_CONFIRM` | `required`: a tool the user confirms is refused for a client that cannot ask its user; `best-effort`: it runs for such a client | `required` |",
          "| `MCP_STATE_KEY` | a secret of 32 characters or more sealing the confirmations of 2026-07-28 clients (their `requestState`); give every replica the same one | one per process |",
        ]
      : []),
    "| `LOG_LEVEL` / `LOG_FORMAT` | `debug`, `info`, `warn`, `error` or `silent` (one line per tool call at `info`, failures at `warn` with their reason) / `json` or `text`, on stderr | `info` / `json` |",
    "",
    "## Credentials",
    "",
    facts.passthrough.authorization
      ? facts.prefer === "caller"
        ? "One identity per call: a caller that sends an `Authorization` header has it forwarded to the upstream origin (only), and no server-held credential goes with its calls; without one, the server-held credential below applies."
        : "One identity per call: the caller's `Authorization` header is forwarded to the upstream origin (only) on operations where no server-held credential below applies, and never beside one (config `auth.prefer: caller` prefers the caller's)."
      : "The caller's `Authorization` header is **not** forwarded; only server-held credentials are used.",
    facts.passthrough.headers.length > 0
      ? `These caller headers are forwarded too: ${facts.passthrough.headers.map((h) => `\`${markdownText(h)}\``).join(", ")}.`
      : "",
    "",
    ...(credentials.length > 0
      ? [
          "Server-held credentials, read from the environment (the first alternative of an operation whose variables are all set is used):",
          "",
          "| variable | scheme | sent as |",
          "|---|---|---|",
          ...credentials,
        ]
      : ["The document declares no security schemes."]),
    "",
    ...(parameters.length > 0
      ? [
          "Parameters the server sends itself, read from the environment when it starts (no tool takes them as arguments; a call that needs an unset one fails and says which):",
          "",
          "| variable | parameter | used by |",
          "|---|---|---|",
          ...parameters,
          "",
        ]
      : []),
    "## Clients",
    "",
    "Claude Desktop (`claude_desktop_config.json`) launches the server over stdio; fill in the credential:",
    "",
    "```json",
    JSON.stringify({ mcpServers: { [facts.name]: { command: "node", args: [entry, "--stdio"], env: stdioEnvironment(facts) } } }, null, 2),
    "```",
    "",
    "Claude Code, against the HTTP server (`npm start`):",
    "",
    "```sh",
    `claude mcp add --transport http ${facts.name} http://127.0.0.1:3000/mcp --header "Authorization: Bearer <token>"`,
    "```",
    "",
    "VS Code (`.vscode/mcp.json`):",
    "",
    "```json",
    JSON.stringify(
      { servers: { [facts.name]: { type: "http", url: "http://127.0.0.1:3000/mcp", headers: { Authorization: "Bearer <token>" } } } },
      null,
      2,
    ),
    "```",
    "",
    "Cursor (`.cursor/mcp.json`) and other clients that speak Streamable HTTP:",
    "",
    "```json",
    JSON.stringify(
      { mcpServers: { [facts.name]: { url: "http://127.0.0.1:3000/mcp", headers: { Authorization: "Bearer <token>" } } } },
      null,
      2,
    ),
    "```",
    "",
    "MCP Inspector:",
    "",
    "```sh",
    'npx @modelcontextprotocol/inspector@2.12.0 --cli http://127.0.0.1:3000/mcp --transport http --method tools/list --header "Authorization: Bearer <token>"',
    "```",
    "",
    "## Deploy",
    "",
    "`npm install` in this folder writes `package-lock.json`: commit it, the image builds from it (`npm ci`; without one it runs `npm install`).",
    "",
    "```sh",
    `cd ${shellOut}`,
    `docker build -f deploy/Dockerfile -t ${imageName(facts.name)} .`,
    `docker run -e API_BASE_URL=https://api.example.com -e PUBLIC_URL=https://mcp.example.com -p 3000:3000 ${imageName(facts.name)}`,
    "```",
    "",
    "The image runs as the unprivileged `node` user and listens on all interfaces, so set `PUBLIC_URL` (or `ALLOWED_ORIGINS`) for the clients' host and origin.",
    "",
    ...teamSection(facts),
    "**Each user's own account at the API** (an API whose own OAuth provider lets no MCP client register, as GitHub's or Slack's): with `AUTH_MODE=proxy` this server is the authorization server your team's clients see. Register an app with the provider whose callback URL is `https://mcp.example.com/oauth/callback`, make a key with `openssl rand -base64 32` (the same on every replica), then",
    "",
    "```sh",
    `docker run -e AUTH_MODE=proxy -e PUBLIC_URL=https://mcp.example.com -e API_BASE_URL=https://api.example.com -e AUTH_CLIENT_ID=<app id> -e AUTH_CLIENT_SECRET=<app secret> -e AUTH_KEY=<key> -p 3000:3000 ${imageName(facts.name)}`,
    "```",
    "",
    "Clients register with the server, the user allows them on its consent page and signs in at the provider (its endpoints: the config's `auth.provider`, the document's oauth2 authorization-code flow, or `AUTH_PROVIDER_AUTHORIZATION_URL` and `AUTH_PROVIDER_TOKEN_URL`), and every call of theirs carries their own provider token, which the client never sees. `PUBLIC_URL` must be https (http only on loopback) and `API_BASE_URL` must be set: users' tokens go only to an upstream you name.",
    ...(credentials.length > 0
      ? [
          "",
          "Without `AUTH_MODE=resource` or `proxy`, `/mcp` has no authentication of its own: with a server-held credential set, put the service behind a proxy that authenticates callers.",
        ]
      : []),
    "",
    ...listingSection(facts.listing, shellOut, facts.runtime !== undefined),
    "## Keep it current",
    "",
    "After every API change, from your project's root:",
    "",
    "```sh",
    check,
    "```",
    "",
    "It exits 1 naming the stale files. `deploy/oapi-mcp-check.yml` is a GitHub Actions workflow that runs it and builds this folder (declarations too) outside it: copy it to `.github/workflows/` as it is.",
    "",
    ...curationLines(facts.curation),
  ];
  return { text: `${GENERATED_MARKDOWN_HEADER}\n${lines.join("\n")}`, table: toolTable(facts.tools) };
}

/**
 * "For a team": resource mode with the scopes this server publishes (the document's, or the config's scope rule), to
 * create at the authorization server as they are; when tools that change data need no scope, says so and how to give
 * them one, never a made-up scope.
 */
function teamSection(facts: ReadmeFacts): string[] {
  // Each tool's scopes, as the server publishes and checks them (the document's OAuth scopes, the config's).
  const scoped = facts.tools.map((tool) => ({ tool, scopes: scopesOf(tool, facts) }));
  const scopes = [...new Set(scoped.flatMap((entry) => entry.scopes))].sort();
  const openWrites = scoped
    .filter((entry) => entry.tool.annotations.readOnlyHint !== true && entry.scopes.length === 0)
    .map((entry) => entry.tool);
  const created =
    scopes.length > 0
      ? `Create the scopes this server needs there, as they are named: ${scopes.map((scope) => `\`${scope}\``).join(", ")}, and grant each user those they may have (the authorization server decides: a client asks for all of them at the first sign-in, and a user sees only the tools their token allows). `
      : "";
  const byScope = scopes.map((scope) => {
    const needing = scoped.filter((entry) => entry.scopes.includes(scope)).map((entry) => `\`${entry.tool.name}\``);
    return `- \`${scope}\`: ${someOf(needing, 12)}`;
  });
  const which =
    byScope.length > 0
      ? [
          "",
          "Which tools need which scope (a tool listed under several needs them all, or one of its document's alternatives):",
          "",
          ...byScope,
        ]
      : [];
  const open =
    openWrites.length > 0
      ? [
          "",
          `**Writes are open to every signed-in user**: ${someOf(
            openWrites.map((tool) => `\`${tool.name}\``),
            5,
          )} change data and need no scope. Give them one in the config and generate again:`,
          "",
          "```yaml",
          "auth:",
          "  scopes:",
          `    read: ${facts.name}:read      # scopes you create at the authorization server`,
          `    write: ${facts.name}:write`,
          "```",
        ]
      : [];
  return [
    "**For a team**, make it an OAuth resource server for your company's authorization server (Keycloak, Auth0, Entra ID, Okta, …):",
    `register the server there as an API whose identifier is its canonical URI (\`https://mcp.example.com/mcp\`). ${created}Then`,
    "",
    "```sh",
    `docker run -e AUTH_MODE=resource -e AUTH_ISSUER=https://login.example.com/realms/acme -e PUBLIC_URL=https://mcp.example.com -e API_BASE_URL=https://api.example.com -e UPSTREAM_AUTHORIZATION="Bearer <service token>" -p 3000:3000 ${imageName(facts.name)}`,
    "```",
    "",
    "MCP clients then sign their users in from the URL alone (`/.well-known/oauth-protected-resource/mcp` names the authorization server and the scopes); a request without a valid token gets 401, one without an operation's scope 403 naming it, so the client can ask for it; the upstream never sees a user's MCP token (`AUTH_UPSTREAM=exchange` gets each user an upstream token of their own). `AUTH_SCOPES` adds scopes every call needs.",
    ...which,
    ...open,
    "",
  ];
}
