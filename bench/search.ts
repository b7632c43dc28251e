import { readFile } from "node:fs/promises";
import { silentLogger } from "oapi-mcp-gen-runtime";
import { MemoryCatalogue } from "../search/catalogue/index.js";
import { DocumentParser, type LoadedApi } from "../search/documents/index.js";
import { GITHUB } from "./generation.js";
import { fmt, median, percentile, table, timeRuns } from "./stats.js";

const QUERIES = [
  "create an issue",
  "merge a pull request",
  "list branches",
  "get repository contents",
  "create a release",
  "search code",
  "list workflow runs",
  "download workflow run logs",
  "star a repository",
  "create a check run",
  "add labels to an issue",
  "list organization members",
  "create a gist",
  "delete a repository",
  "request reviewers",
  "list commits",
];

/** The seed's behaviour: a case-insensitive substring match over path, summary and description. */
function substringSearch(api: LoadedApi, keyword: string): number {
  const needle = keyword.toLowerCase();
  return api.operations.filter((op) => `${op.path} ${op.summary ?? ""} ${op.description ?? ""}`.toLowerCase().includes(needle)).length;
}

/** Search server: GitHub document load time, search latency and memory, against baselines measured in the same run. */
export async function benchSearch(): Promise<string> {
  const policy = {
    address: { allowedHosts: new Map(), allowPrivate: false },
    limits: { maxBytes: 1e8, timeoutMs: 30_000, maxRedirects: 5 },
    fileRoots: [],
  };
  const parse = await timeRuns(5, async () => JSON.parse(await readFile(GITHUB, "utf8")));
  let api: LoadedApi | undefined;
  // One parser (one worker thread), as a running search server has.
  const parser = new DocumentParser({ maxOperations: 50_000, maxParseMemoryMb: 2048, parseTimeoutMs: 120_000, maxQueuedLoads: 4 });
  const load = await timeRuns(5, async () => {
    const catalogue = new MemoryCatalogue(policy, undefined, silentLogger, parser, { maxApis: 10, maxTotalBytes: 1e9 });
    api = (await catalogue.load("github", GITHUB, { trusted: true })).api;
    api.index();
  });
  const loaded = api as LoadedApi;
  global.gc?.();
  // The whole process: the benchmarks run before this one leave their own heap behind, so run `bench search` alone for it.
  const rss = process.memoryUsage().rss / 2 ** 20;
  await parser.close();
  const ranked: number[] = [];
  const naive: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const query = QUERIES[i % QUERIES.length] as string;
    let start = performance.now();
    loaded.index().search(query);
    ranked.push(performance.now() - start);
    start = performance.now();
    substringSearch(loaded, query);
    naive.push(performance.now() - start);
  }
  process.stdout.write(`## Search server (GitHub's document, ${loaded.operations.length} operations)\n\n`);
  return table(
    ["measure", "oapi-mcp-gen", "baseline", "ratio", "baseline is"],
    [
      [
        "load + index, median of 5 (ms)",
        fmt(median(load)),
        fmt(median(parse)),
        fmt(median(load) / median(parse), 2),
        "JSON.parse of the file",
      ],
      [
        "search p50 over 1,000 (ms)",
        fmt(percentile(ranked, 50), 2),
        fmt(percentile(naive, 50), 2),
        fmt(percentile(ranked, 50) / percentile(naive, 50), 2),
        "substring scan (the seed's search)",
      ],
      [
        "search p99 over 1,000 (ms)",
        fmt(percentile(ranked, 99), 2),
        fmt(percentile(naive, 99), 2),
        fmt(percentile(ranked, 99) / percentile(naive, 99), 2),
        "substring scan",
      ],
      ["RSS after load (MiB)", fmt(rss, 0), "—", "—", ""],
    ],
  );
}
