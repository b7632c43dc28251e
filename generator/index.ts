/** Programmatic API of the generator. */

export { UserError } from "./base/errors.js";
export { type GeneratorConfig, parseConfig, type ResolvedConfig, readConfigFile, resolveConfig } from "./config/config.js";
export { type GenerationResult, generateFromDocument, generateFromFile } from "./generate.js";
export { toolNameFromOperationId, toolNameFromRoute } from "./model/tool-name.js";
export { compareOutput, type OutputReport, writeOutput } from "./output/output.js";
