/** Worker thread: prints and formats its share of module structures and posts the texts back. */
import { parentPort, workerData } from "node:worker_threads";
import type { SourceFileStructure } from "ts-morph";
import { printStructures } from "./emit.js";
import { formatTypeScript } from "./format.js";

const share = workerData as [string, SourceFileStructure][];
const printed = printStructures(new Map(share));
const texts: [string, string][] = [];
for (const [path, text] of printed) texts.push([path, await formatTypeScript(text)]);
parentPort?.postMessage(texts);
