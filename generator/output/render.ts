import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { flat, type ModuleSource } from "../../templates/literal-slots.js";
import { packageVersion } from "../base/package-version.js";
import { compileCacheEnabled } from "../cache/compile-cache.js";
import { contentKey, type RenderCache } from "../cache/render-cache.js";
import { FORMAT_FINGERPRINT } from "../layout/format.js";

const tsMorphVersion = packageVersion("ts-morph");
/** Everything besides a structure that decides its rendered text. */
const RENDER_FINGERPRINT = `ts-morph ${tsMorphVersion} ${FORMAT_FINGERPRINT} literal slots 1`;
const WORKER = new URL("./render-worker.js", import.meta.url);
/** Below this many modules to render, worker start-up costs more than it saves. */
const POOL_THRESHOLD = 64;

/** The cache key of a module: its structure, its slots' values on one line and the renderer's versions and settings. */
export function renderKey(source: ModuleSource): string {
  return contentKey(
    RENDER_FINGERPRINT,
    `${JSON.stringify(source.structure)}\n${source.literals.map(flat).join("\n")}${source.code ? `\n${JSON.stringify(source.code)}` : ""}`,
  );
}

/**
 * Render threads: `OAPI_MCP_GEN_WORKERS` (0 or 1 renders in-process), else the cores available besides the side
 * thread's (generator/side-thread.ts), at most 4.
 */
function workerCount(): number {
  const configured = Number(process.env.OAPI_MCP_GEN_WORKERS);
  return process.env.OAPI_MCP_GEN_WORKERS && Number.isInteger(configured) && configured >= 0
    ? configured
    : Math.min(availableParallelism() - 1, 4);
}

/** Prints (ts-morph) and formats (prettier and the literal layout) modules; cached modules are not rendered again. */
export async function renderModules(
  structures: ReadonlyMap<string, ModuleSource>,
  cache?: RenderCache,
  prettierOnly = false,
): Promise<Map<string, string>> {
  const rendered = new Map<string, string>();
  const misses: [string, ModuleSource, string][] = [];
  for (const [path, structure] of structures) {
    const key = renderKey(structure);
    const hit = cache?.get(key, path);
    if (hit !== undefined) rendered.set(path, hit);
    else misses.push([path, structure, key]);
  }
  const workers = workerCount();
  const usePool = !prettierOnly && workers > 1 && misses.length >= POOL_THRESHOLD && existsSync(fileURLToPath(WORKER));
  const fresh = usePool ? await renderInPool(misses, workers) : await renderHere(misses, prettierOnly);
  for (const [path, , key] of misses) {
    const text = fresh.get(path);
    if (text === undefined) throw new Error(`internal: ${path} was not rendered`);
    rendered.set(path, text);
    cache?.set(key, text, path);
  }
  return new Map([...structures.keys()].map((path) => [path, rendered.get(path) ?? ""]));
}

async function renderHere(items: readonly [string, ModuleSource, string][], prettierOnly: boolean): Promise<Map<string, string>> {
  if (items.length === 0) return new Map();
  const { renderModules: render, renderModuleWhole } = await import("../layout/emit.js");
  const sources = items.map(([, source]) => source);
  const texts = prettierOnly ? await Promise.all(sources.map(renderModuleWhole)) : await render(sources);
  return new Map(items.map(([path], index) => [path, texts[index] ?? ""]));
}

/** Splits the work over worker threads, each printing and formatting its share. */
async function renderInPool(items: readonly [string, ModuleSource, string][], count: number): Promise<Map<string, string>> {
  const shares: [string, ModuleSource][][] = Array.from({ length: count }, () => []);
  items.forEach(([path, structure], index) => {
    shares[index % count]?.push([path, structure]);
  });
  const results = await Promise.all(
    shares.map(
      (share) =>
        new Promise<[string, string][]>((resolve, reject) => {
          // The worker ends by itself once it has posted its texts (saving its compile cache on the way out).
          const worker = new Worker(WORKER, { workerData: { share, compileCache: compileCacheEnabled() } });
          worker.once("message", (texts: [string, string][]) => resolve(texts));
          worker.once("error", reject);
          worker.once("exit", (code) => {
            if (code !== 0) reject(new Error(`render worker exited with ${code}`));
          });
        }),
    ),
  );
  return new Map(results.flat());
}
