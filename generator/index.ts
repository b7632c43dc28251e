/** Programmatic API of the generator. */
export { type GeneratorConfig, parseConfig, type ResolvedConfig, readConfigFile, resolveConfig } from "./config.js";
export { UserError } from "./errors.js";
export { type GenerationResult, generateFromDocument, generateFromFile } from "./generate.js";
export { compareOutput, type OutputReport, writeOutput } from "./output.js";
export { toolNameFromOperationId, toolNameFromRoute } from "./tool-name.js";
