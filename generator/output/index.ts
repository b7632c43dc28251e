/** The generated tree on disk: rendered, compared for `--check`, written, with the runtime vendored on request. */

export { checkOutputFolder, compareOutput, encodedFiles, fileDigests, foreignFiles, writeOutput } from "./output.js";
export { isGeneratedFile, outputFiles, pathKind } from "./output-files.js";
export { renderModules } from "./render.js";
export {
  type RuntimeSource,
  runtimeCopies,
  runtimeDependency,
  runtimeTarball,
  VENDOR_FOLDER,
  vendoredRuntime,
  vendorNpmrc,
} from "./vendor-runtime.js";
