/** The command line's parts that stand alone: the run manifest that lets a run with unchanged inputs skip generating, and its warning lines. */

export { initConfig } from "./init.js";
export { RunManifest } from "./run-manifest.js";
export { warningLines } from "./warning-lines.js";
