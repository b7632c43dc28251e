import { spawn } from "node:child_process";
import { readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { fmt, median, table } from "./stats.js";

const CLI = fileURLToPath(new URL("../generator/cli.js", import.meta.url));
const GITHUB = createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json");
/** Long enough for the idle parse worker to stop (2 s) and the heap to settle. */
const SETTLE_MS = 4000;

/** The resident memory of a search server process once it has started (and loaded what `args` says) and gone idle. */
async function serverRss(args: string[]): Promise<number> {
  const child = spawn(process.execPath, [CLI, "search", "--memory", "--port", "0", ...args], { stdio: ["ignore", "ignore", "pipe"] });
  try {
    let log = "";
    child.stderr.on("data", (chunk: Buffer) => (log += chunk.toString()));
    const loads = args.filter((arg) => arg === "--load").length;
    const deadline = Date.now() + 120_000;
    // Listening is logged after every --load has finished.
    while (!/listening/.test(log)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`search server did not start: ${log.slice(-500)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (loads > 0 && (log.match(/loaded document/g) ?? []).length < loads) throw new Error("a document did not load");
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const status = await readFile(`/proc/${child.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
  } finally {
    child.kill();
  }
}

/** Search server memory: RSS of an idle process with GitHub's document loaded, against the document's size, per heap mode. */
export async function benchSearchMemory(): Promise<string> {
  const documentMiB = (await stat(GITHUB)).size / 2 ** 20;
  const rows: string[][] = [];
  for (const heap of ["size", "speed"]) {
    // The median of three processes each: what a process keeps after a load varies by several MiB from run to run.
    const empty = median([await serverRss(["--heap", heap]), await serverRss(["--heap", heap]), await serverRss(["--heap", heap])]);
    const load = ["--heap", heap, "--load", `github=${GITHUB}`];
    const loaded = median([await serverRss(load), await serverRss(load), await serverRss(load)]);
    rows.push([
      `--heap ${heap}`,
      fmt(empty, 0),
      fmt(loaded, 0),
      fmt(loaded - empty, 0),
      fmt((loaded - empty) / documentMiB, 1),
      fmt(loaded / documentMiB, 1),
    ]);
  }
  process.stdout.write(`### Search server memory (GitHub's document, ${fmt(documentMiB, 1)} MiB)\n\n`);
  return `### Memory (GitHub's document, ${fmt(documentMiB, 1)} MiB on disk; target: what loading it adds ≤ 5× its size; medians of 3 processes)\n\n${table(
    ["process", "RSS empty (MiB)", "RSS loaded (MiB)", "added (MiB)", "added ÷ document", "RSS ÷ document"],
    rows,
  )}`;
}
