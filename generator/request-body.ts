import { type BodyBinding as RuntimeBodyBinding, setOwn } from "oapi-mcp-gen-runtime";
import type { OperationEntry } from "../openapi/operations.js";
import { derefObject } from "../openapi/refs.js";
import { didYouMean } from "../openapi/suggest.js";
import { isJsonObject, type JsonObject, type JsonValue, type OpenApiDocument } from "../openapi/types.js";
import type { OperationOverride } from "./config.js";
import { UserError } from "./errors.js";
import type { SchemaConverter } from "./json-schema.js";
import { preferredMediaType } from "./media-types.js";

/** The request body of a tool: the runtime's binding plus what only the generator needs. */
export interface BodyBinding extends RuntimeBodyBinding {
  required: boolean;
  /** Set when the body's properties or `required` list differ from the document's schema. */
  reshape?: { omitted: string[]; required: string[] };
}

/** How a tool argument carries file content: base64, or a path under the server's upload folder. */
export const FILE_SCHEMA: JsonObject = {
  type: "object",
  description: "File content: base64 (with an optional filename and contentType), or a path under the server's UPLOAD_DIR.",
  properties: {
    base64: { type: "string", contentEncoding: "base64", description: "The bytes, base64-encoded." },
    path: { type: "string", description: "A file under the server's UPLOAD_DIR." },
    filename: { type: "string" },
    contentType: { type: "string" },
  },
  additionalProperties: false,
  oneOf: [
    { properties: { base64: { type: "string" } }, required: ["base64"] },
    { properties: { path: { type: "string" } }, required: ["path"] },
  ],
};

/** The `body` property of a tool's input schema and how to send it, or undefined without a request body. */
export function bodyProperty(
  document: OpenApiDocument,
  entry: OperationEntry,
  override: OperationOverride,
  converter: SchemaConverter,
  where: string,
): { schema: JsonObject; binding: BodyBinding; warnings?: string[] } | undefined {
  const requestBody = derefObject(document, entry.operation.requestBody);
  if (!requestBody) {
    if (override.body) throw new UserError(`overrides.${where}.body: the operation has no request body`);
    return undefined;
  }
  const content = isJsonObject(requestBody.content) ? requestBody.content : undefined;
  const chosen = preferredMediaType(content);
  if (!chosen || !content) {
    if (override.body) throw new UserError(`overrides.${where}.body: the request body declares no media type`);
    return {
      schema: { type: "object", description: "The document declares this body without a media type; it is sent as JSON." },
      binding: { mediaType: "application/json", kind: "json", required: requestBody.required === true },
      warnings: [`${where}: the request body declares no media type; it is sent as JSON`],
    };
  }
  const media = content[chosen.mediaType];
  const rawSchema = isJsonObject(media) ? media.schema : undefined;
  let binding: BodyBinding = { mediaType: chosen.mediaType, kind: chosen.kind, required: requestBody.required === true };
  let schema: JsonObject;
  if (chosen.kind === "binary") schema = structuredClone(FILE_SCHEMA);
  else if (chosen.kind === "text") schema = { type: "string" };
  else {
    schema = converter.convertRoot(rawSchema);
    const readOnly = acceptReadOnly(document, schema, rawSchema);
    if (readOnly.length > 0) binding = { ...binding, readOnly };
    const files = chosen.kind === "multipart" ? markFiles(document, schema, rawSchema) : [];
    if (files.length > 0) binding = { ...binding, files };
    if ((chosen.kind === "form" || chosen.kind === "multipart") && isJsonObject(media) && isJsonObject(media.encoding)) {
      binding = { ...binding, encoding: encodingOf(media.encoding) };
    }
  }
  const description = typeof requestBody.description === "string" ? requestBody.description : undefined;
  if (description && schema.description === undefined) schema.description = description;
  if (chosen.kind === "binary" || chosen.kind === "text")
    schema.description = [description, `Sent as ${chosen.mediaType}.`].filter(Boolean).join("\n");
  const original = derefObject(document, rawSchema);
  const originalNames = Object.keys(isJsonObject(original?.properties) ? original.properties : {});
  if (override.body) reshapeBody(schema, override.body, where);
  const finalNames = Object.keys(isJsonObject(schema.properties) ? schema.properties : {});
  const finalRequired = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const originalRequired = Array.isArray(original?.required) ? (original.required as string[]) : [];
  const isObjectBody = chosen.kind !== "binary" && chosen.kind !== "text" && originalNames.length > 0;
  if (isObjectBody && (finalNames.length !== originalNames.length || finalRequired.join("\u0000") !== originalRequired.join("\u0000"))) {
    binding.reshape = { omitted: originalNames.filter((name) => !finalNames.includes(name)), required: finalRequired };
  }
  if (binding.readOnly) {
    const kept = binding.readOnly.filter((name) => isJsonObject(schema.properties) && Object.hasOwn(schema.properties, name));
    binding = kept.length > 0 ? { ...binding, readOnly: kept } : (({ readOnly: _, ...rest }) => rest)(binding);
  }
  return { schema, binding };
}

/**
 * Read-only properties of an object body (which requests must not set) are accepted anyway and dropped before the
 * call, so a resource read with one tool can be sent back to another; returns their names.
 */
function acceptReadOnly(document: OpenApiDocument, schema: JsonObject, raw: JsonValue | undefined): string[] {
  const source = derefObject(document, raw);
  if (!source || !isJsonObject(source.properties) || !isJsonObject(schema.properties)) return [];
  const names: string[] = [];
  for (const [name, property] of Object.entries(source.properties)) {
    if (Object.hasOwn(schema.properties, name) || derefObject(document, property)?.readOnly !== true) continue;
    setOwn(schema.properties, name, { description: "Read-only: accepted and ignored (never sent)." });
    names.push(name);
  }
  return names;
}

/** Replaces binary properties of a multipart object schema by the file schema and records them. */
function markFiles(document: OpenApiDocument, schema: JsonObject, raw: JsonValue | undefined): string[] {
  const source = derefObject(document, raw);
  if (!source || !isJsonObject(source.properties) || !isJsonObject(schema.properties)) return [];
  const files: string[] = [];
  for (const [name, property] of Object.entries(source.properties)) {
    const resolved = derefObject(document, property);
    if (!Object.hasOwn(schema.properties, name) || !resolved) continue;
    const items = derefObject(document, resolved.items);
    let replacement: JsonObject;
    if (isBinary(resolved)) replacement = structuredClone(FILE_SCHEMA);
    else if (resolved.type === "array" && items && isBinary(items)) replacement = { type: "array", items: structuredClone(FILE_SCHEMA) };
    else continue;
    if (typeof resolved.description === "string") replacement.description = resolved.description;
    setOwn(schema.properties, name, replacement);
    files.push(name);
  }
  return files;
}

/** OpenAPI 3.0 marks file content with `format: binary`; 3.1 with `contentMediaType` and no `contentEncoding`. */
function isBinary(schema: JsonObject): boolean {
  if (schema.format === "binary") return true;
  return typeof schema.contentMediaType === "string" && schema.contentEncoding === undefined && schema.type !== "object";
}

function encodingOf(encoding: JsonObject): Record<string, { style?: string; explode?: boolean; contentType?: string }> {
  const out: Record<string, { style?: string; explode?: boolean; contentType?: string }> = {};
  for (const [name, value] of Object.entries(encoding)) {
    if (!isJsonObject(value)) continue;
    const entry: { style?: string; explode?: boolean; contentType?: string } = {};
    if (typeof value.style === "string") entry.style = value.style;
    if (typeof value.explode === "boolean") entry.explode = value.explode;
    if (typeof value.contentType === "string") entry.contentType = value.contentType;
    if (Object.keys(entry).length > 0) setOwn(out, name, entry);
  }
  return out;
}

/** Applies a config body override (omit, required, minProperties) to an object schema, in place. */
function reshapeBody(schema: JsonObject, override: NonNullable<OperationOverride["body"]>, where: string): void {
  if (!isJsonObject(schema.properties)) {
    throw new UserError(`overrides.${where}.body: the request body is not an object schema with properties`);
  }
  const properties = schema.properties;
  const problems: string[] = [];
  for (const name of [...(override.omit ?? []), ...(override.required ?? [])]) {
    if (!Object.hasOwn(properties, name)) {
      problems.push(`overrides.${where}.body: "${name}" is not a property of the request body${didYouMean(name, Object.keys(properties))}`);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  for (const name of override.omit ?? []) delete properties[name];
  // An omitted property must be refused, not silently forwarded, unless the schema already types extra properties.
  if ((override.omit ?? []).length > 0 && !isJsonObject(schema.additionalProperties)) schema.additionalProperties = false;
  let required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  if (override.required) required = [...override.required];
  required = required.filter((name) => Object.hasOwn(properties, name));
  if (required.length > 0) schema.required = required;
  else delete schema.required;
  if (override.minProperties !== undefined) schema.minProperties = override.minProperties;
}
