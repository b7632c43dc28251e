import { type ChildProcessByStdio, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

/** The built CLI, whether this file runs built (dist/bench) or from source (tests). */
const CLI = fileURLToPath(
  new URL(import.meta.url.includes("/dist/bench/") ? "../generator/cli/cli.js" : "../dist/generator/cli/cli.js", import.meta.url),
);

/** A search server running as its own process, in memory, on a free loopback port. */
export interface SearchProcess {
  child: ChildProcessByStdio<null, null, Readable>;
  url: URL;
  /** Its log so far (stderr). */
  log(): string;
  /** Its resident memory now, from /proc, in MiB. */
  rssMiB(): Promise<number>;
  stop(): void;
}

/**
 * Starts `oapi-mcp-gen search --port 0 …args` (in memory unless args name a `--store`) and resolves once it listens
 * (after every --load).
 */
export async function startSearchProcess(args: string[], nodeArgs: string[] = []): Promise<SearchProcess> {
  const memory = args.includes("--store") ? [] : ["--memory"];
  const child = spawn(process.execPath, [...nodeArgs, CLI, "search", ...memory, "--port", "0", ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 120_000;
  while (!/listening/.test(log)) {
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error(`search server did not start: ${log.slice(-500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    url: new URL(/"url":"([^"]+)"/.exec(log)?.[1] ?? ""),
    log: () => log,
    rssMiB: async () => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${child.pid}/status`, "utf8"))?.[1]) / 1024,
    stop: () => child.kill(),
  };
}
