/** OpenAPI schemas as JSON Schema for MCP: converted per side, checked against both dialects, trimmed and shared. */

export { codePointCompare } from "../base/code-point-order.js";
export { DefinitionMemo, SchemaConverter, type SchemaDirection } from "./json-schema.js";
export { type SchemaChecks, toolSchemaProblems } from "./schema-check.js";
export { type TrimmedSchema, trimSchema } from "./schema-trim.js";
export { shareSchemas } from "./shared-schemas.js";
