/** The command line's parts that stand alone: the run manifest that lets a run with unchanged inputs skip generating. */

export { RunManifest } from "./run-manifest.js";
