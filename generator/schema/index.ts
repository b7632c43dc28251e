/** OpenAPI schemas as JSON Schema for MCP: converted per side, checked against both dialects, trimmed and shared. */

export { codePointCompare } from "../base/code-point-order.js";
export { DefinitionMemo, SchemaConverter, type SchemaDirection } from "./json-schema.js";
export { LONG_ENUM, uniqueValues, withShortEnums } from "./long-enums.js";
export { metaSchemaErrors as draft2020SchemaErrors } from "./meta-2020-12.js";
export { metaSchemaErrors as draft07SchemaErrors } from "./meta-draft-07.js";
export { type SchemaChecks, toolSchemaProblems } from "./schema-check.js";
export { type TrimmedSchema, trimSchema } from "./schema-trim.js";
export { shareSchemas } from "./shared-schemas.js";
