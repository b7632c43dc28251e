import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The built CLI's entry point. */
export const CLI = fileURLToPath(new URL("../../dist/generator/cli/cli.js", import.meta.url));

/** Runs the built CLI (`npm test` builds first) and returns its exit code and output. */
export function runCli(args: string[], cwd = ROOT) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
