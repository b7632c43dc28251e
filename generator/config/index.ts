/** The config file: its schema-checked types, read and resolved with defaults. */

export {
  type AnnotationOverride,
  type GeneratorConfig,
  type OperationFilter,
  type OperationOverride,
  overrideFor,
  parseConfig,
  type ResolvedConfig,
  readConfigFile,
  resolveConfig,
} from "./config.js";
export type { ParameterSources, PathPrefixes } from "./config-types.js";
