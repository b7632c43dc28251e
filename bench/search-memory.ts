import { stat } from "node:fs/promises";
import { GITHUB } from "./generation.js";
import { startSearchProcess } from "./search-process.js";
import { fmt, median, table } from "./stats.js";

/** Long enough for the idle parse worker to stop (2 s) and the heap to settle. */
const SETTLE_MS = 4000;

/** The resident memory of a search server process once it has started (and loaded what `args` says) and gone idle. */
async function serverRss(args: string[]): Promise<number> {
  const server = await startSearchProcess(args);
  try {
    const loads = args.filter((arg) => arg === "--load").length;
    if (loads > 0 && (server.log().match(/loaded document/g) ?? []).length < loads) throw new Error("a document did not load");
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return await server.rssMiB();
  } finally {
    server.stop();
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
