/** The model of a document: its operations, schemas and security, and the copy pruned to a selection. */
export { buildApiModel, buildApiModelInSlices } from "./build-model.js";
export { markdownText } from "./markdown-text.js";
export type {
  ApiModel,
  MediaTypeModel,
  OperationModel,
  ParameterLocation,
  ParameterModel,
  SecurityModel,
  SecurityRequirement,
  SecuritySchemeModel,
} from "./model.js";
export { listOperations } from "./operations.js";
export { pruneDocument } from "./prune.js";
export { isNullBesideAlternatives, isReferenceObject, readSchema, type Schema, type SchemaObject, withoutKeyword } from "./schema.js";
export { SchemaCatalog } from "./schema-catalog.js";
