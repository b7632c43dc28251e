/** Worker thread: renders its share of modules and posts the texts back. */
import { parentPort, workerData } from "node:worker_threads";
import type { ModuleSource } from "../../templates/literal-slots.js";
import { enableCompileCache } from "../cache/compile-cache.js";

const { share, compileCache }: { share: [string, ModuleSource][]; compileCache: boolean } = workerData;
if (compileCache) enableCompileCache();
const { renderModules } = await import("../layout/emit.js");
const texts = await renderModules(share.map(([, source]) => source));
parentPort?.postMessage(share.map(([path], index) => [path, texts[index] ?? ""]));
