/** Worker thread: renders its share of modules and posts the texts back. */
import { parentPort, workerData } from "node:worker_threads";
import type { ModuleSource } from "../templates/literal-slots.js";
import { renderModules } from "./emit.js";

const share = workerData as [string, ModuleSource][];
const texts = await renderModules(share.map(([, source]) => source));
parentPort?.postMessage(share.map(([path], index) => [path, texts[index] ?? ""]));
