import {
  didYouMean,
  type FieldEncoding,
  headerRefusal,
  type ParameterSource,
  type BodyBinding as RuntimeBodyBinding,
  setOwn,
} from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../../openapi/document/index.js";
import type { MediaTypeModel, OperationModel, SchemaCatalog, SchemaObject } from "../../openapi/model/index.js";
import { UserError } from "../base/errors.js";
import type { OperationOverride } from "../config/config.js";
import type { ParameterSources } from "../config/config-types.js";
import type { SchemaConverter } from "../schema/json-schema.js";
import { preferredMediaType } from "./media-types.js";
import { suppliedBy } from "./parameters.js";

/** The request body of a tool: the runtime's binding plus what only the generator needs. */
export interface BodyBinding extends RuntimeBodyBinding {
  required: boolean;
  /** Set when the body's properties or `required` list differ from the document's schema. */
  reshape?: { omitted: string[]; required: string[] };
  /** The document declares the body without a media type: its type is any object, not one of the document's types. */
  undeclared?: boolean;
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
  schemas: SchemaCatalog,
  operation: OperationModel,
  override: OperationOverride,
  converter: SchemaConverter,
  where: string,
  sources: ParameterSources = {},
  closeBodies = false,
): { schema: JsonObject; binding: BodyBinding; warnings?: string[] } | undefined {
  const requestBody = operation.requestBody;
  if (!requestBody) {
    if (override.body) throw new UserError(`overrides.${where}.body: the operation has no request body`);
    return undefined;
  }
  const chosen = preferredMediaType(requestBody.content);
  if (!chosen) {
    if (override.body) throw new UserError(`overrides.${where}.body: the request body declares no media type`);
    return {
      schema: { type: "object", description: "The document declares this body without a media type; it is sent as JSON." },
      binding: { mediaType: "application/json", kind: "json", required: requestBody.required, undeclared: true },
      warnings: [`${where}: the request body declares no media type; it is sent as JSON`],
    };
  }
  const { media, kind } = chosen;
  // An optional body that can hold nothing (Stripe's GETs declare an empty closed form) is no argument at all.
  if (!requestBody.required && !override.body && (kind === "json" || kind === "form") && holdsNothing(schemas.deref(media.schema)))
    return undefined;
  const warnings: string[] = [];
  let binding: BodyBinding = { mediaType: media.mediaType, kind, required: requestBody.required };
  let schema: JsonObject;
  const declared = kind === "binary" || kind === "text" ? undefined : schemas.deref(media.schema);
  const omitted: string[] = [];
  if (kind === "binary") schema = structuredClone(FILE_SCHEMA);
  else if (kind === "text") schema = { type: "string" };
  else {
    schema = converter.convertRoot(media.schema);
    const readOnly = readOnlyNames(schemas, declared);
    const kept = new Set(readOnly);
    for (const name of converter.rootDropped) if (!kept.has(name)) omitted.push(name);
    if (readOnly.length > 0) binding = { ...binding, readOnly };
    const files = kind === "multipart" ? markFiles(schemas, schema, declared) : [];
    if (files.length > 0) binding = { ...binding, files };
    if ((kind === "form" || kind === "multipart") && media.encoding.size > 0) {
      const encoding = encodingOf(media, kind, where, warnings);
      if (Object.keys(encoding).length > 0) binding = { ...binding, encoding };
    }
  }
  const description = requestBody.description;
  if (description && schema.description === undefined) schema.description = description;
  if (kind === "binary" || kind === "text") schema.description = [description, `Sent as ${media.mediaType}.`].filter(Boolean).join("\n");
  if (override.body) for (const name of reshapeBody(schema, override.body, where)) omitted.push(name);
  const supplied = supplyProperties(schema, sources, override.parameters);
  if (supplied.names.length > 0) {
    for (const name of supplied.names) omitted.push(name);
    if (Object.keys(supplied.sources).length > 0) binding = { ...binding, sources: supplied.sources };
  }
  const ignored = override.body?.ignore ?? [];
  if (ignored.length > 0)
    binding = { ...binding, readOnly: [...(binding.readOnly ?? []), ...ignored.filter((name) => !binding.readOnly?.includes(name))] };
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : [];
  const declaredNames = [...(declared?.properties?.keys() ?? [])];
  const isObjectBody = declared !== undefined && declaredNames.length > 0;
  // Omitted, added (a `required` name the document forgot to define) or differently required properties reshape the type.
  const count = Object.keys(propertiesOf(schema) ?? {}).length;
  const changed =
    omitted.length > 0 || count !== declaredNames.length || required.join("\u0000") !== (declared?.required ?? []).join("\u0000");
  if (isObjectBody && changed) {
    const left = new Set(omitted);
    binding.reshape = { omitted: declaredNames.filter((name) => left.has(name)), required };
  }
  if (binding.readOnly) {
    const kept = binding.readOnly.filter((name) => isObjectWithProperty(schema, name));
    binding = kept.length > 0 ? { ...binding, readOnly: kept } : (({ readOnly: _, ...rest }) => rest)(binding);
  }
  // The contract's tolerance: fields the document leaves out follow its word (an open schema forwards them), unless the
  // operator closes the body, at every depth.
  if ((override.body?.closed ?? closeBodies) && (kind === "json" || kind === "form" || kind === "multipart"))
    binding = { ...binding, closed: true };
  return { schema, binding, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** An object schema that admits only `{}`: no properties, none beyond them, no variants. */
function holdsNothing(schema: SchemaObject | undefined): boolean {
  if (schema === undefined || schema.ref !== undefined) return false;
  const { properties, additionalProperties, allOf, anyOf, oneOf } = schema;
  const patterns = schema.keywords.patternProperties;
  return (properties?.size ?? 0) === 0 && additionalProperties === false && !allOf && !anyOf && !oneOf && patterns === undefined;
}

function isObjectWithProperty(schema: JsonObject, name: string): boolean {
  const properties = schema.properties;
  return typeof properties === "object" && properties !== null && !Array.isArray(properties) && Object.hasOwn(properties, name);
}

/** The converted schema's properties, when it has them. */
function propertiesOf(schema: JsonObject): JsonObject | undefined {
  const properties = schema.properties;
  return typeof properties === "object" && properties !== null && !Array.isArray(properties) ? properties : undefined;
}

/** The body's top-level properties the document marks read-only (accepted in the request's schema, dropped before the call). */
function readOnlyNames(schemas: SchemaCatalog, declared: SchemaObject | undefined): string[] {
  return [...(declared?.properties ?? [])].filter(([, property]) => schemas.deref(property)?.readOnly === true).map(([name]) => name);
}

/**
 * Takes out of an object body the properties the server supplies (config `parameters`: the operation's own entries
 * win over the top-level ones): no caller sees or sets them (the object then refuses unknown properties, unless it
 * types them); `hide` drops one, `value`/`env` become the binding's sources.
 */
function supplyProperties(
  schema: JsonObject,
  global: ParameterSources,
  own: ParameterSources | undefined,
): { names: string[]; sources: Record<string, ParameterSource & { required?: boolean }> } {
  const properties = propertiesOf(schema);
  const found: { names: string[]; sources: Record<string, ParameterSource & { required?: boolean }> } = { names: [], sources: {} };
  if (!properties) return found;
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : [];
  for (const name of Object.keys(properties)) {
    const supplied = suppliedBy(name, own, global);
    if (supplied === undefined) continue;
    found.names.push(name);
    delete properties[name];
    if (supplied.source) setOwn(found.sources, name, { ...supplied.source, ...(required.includes(name) ? { required: true } : {}) });
  }
  if (found.names.length === 0) return found;
  const kept = required.filter((name) => !found.names.includes(name));
  if (kept.length > 0) schema.required = kept;
  else delete schema.required;
  refuseUnknownProperties(schema);
  return found;
}

/** Makes an object schema refuse properties it does not declare, unless it already types them (`additionalProperties: {…}`). */
function refuseUnknownProperties(schema: JsonObject): void {
  const extra = schema.additionalProperties;
  if (typeof extra !== "object" || extra === null || Array.isArray(extra)) schema.additionalProperties = false;
}

/** Replaces binary properties of a multipart object schema by the file schema and records them. */
function markFiles(schemas: SchemaCatalog, schema: JsonObject, declared: SchemaObject | undefined): string[] {
  const properties = propertiesOf(schema);
  if (!declared?.properties || !properties) return [];
  const files: string[] = [];
  for (const [name, property] of declared.properties) {
    const resolved = schemas.deref(property);
    if (!Object.hasOwn(properties, name) || !resolved) continue;
    const items = schemas.deref(resolved.items);
    let replacement: JsonObject;
    if (isBinary(resolved)) replacement = structuredClone(FILE_SCHEMA);
    else if (resolved.type === "array" && items && isBinary(items)) replacement = { type: "array", items: structuredClone(FILE_SCHEMA) };
    else continue;
    const description = resolved.keywords.description;
    if (typeof description === "string") replacement.description = description;
    setOwn(properties, name, replacement);
    files.push(name);
  }
  return files;
}

/** OpenAPI 3.0 marks file content with `format: binary`; 3.1 with `contentMediaType` and no `contentEncoding`. */
function isBinary(schema: SchemaObject): boolean {
  if (schema.format === "binary") return true;
  return schema.contentMediaType !== undefined && !schema.hasContentEncoding && schema.type !== "object";
}

/**
 * The Encoding Objects of a form or multipart body as the runtime reads them. Part headers go with multipart bodies only
 * and never one that frames the part or the request (`Content-Disposition`, `Content-Length`, …), nor a value that
 * would end its line; those are left out with a warning.
 */
function encodingOf(media: MediaTypeModel, kind: "form" | "multipart", where: string, warnings: string[]): Record<string, FieldEncoding> {
  const out: Record<string, FieldEncoding> = {};
  for (const [name, entry] of media.encoding) {
    const { headers: declared, ...fields } = entry;
    const headers: Record<string, string> = {};
    for (const [header, value] of kind === "multipart" ? (declared ?? []) : []) {
      const refusal = header.toLowerCase() === "content-disposition" ? "frames the part" : headerRefusal(header);
      if (refusal === undefined && !/[\r\n\0]/.test(value)) setOwn(headers, header, value);
      else
        warnings.push(
          `${where}: part header ${JSON.stringify(header)} of body field ${JSON.stringify(name)} is not sent: ${refusal ?? "its value has a line break"}`,
        );
    }
    const encoding: FieldEncoding = { ...fields, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
    if (Object.keys(encoding).length > 0) setOwn(out, name, encoding);
  }
  return out;
}

/**
 * Applies a config body override (omit, ignore, required, minProperties) to an object schema, in place; returns what
 * it omitted. An ignored property keeps its schema (and type), is never required, and is dropped before the call.
 */
function reshapeBody(schema: JsonObject, override: NonNullable<OperationOverride["body"]>, where: string): string[] {
  const properties = propertiesOf(schema);
  if (!properties) throw new UserError(`overrides.${where}.body: the request body is not an object schema with properties`);
  const problems: string[] = [];
  for (const name of [...(override.omit ?? []), ...(override.required ?? []), ...(override.ignore ?? [])]) {
    if (!Object.hasOwn(properties, name)) {
      problems.push(`overrides.${where}.body: "${name}" is not a property of the request body${didYouMean(name, Object.keys(properties))}`);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  const omit = override.omit ?? [];
  for (const name of omit) delete properties[name];
  // An omitted property must be refused, not silently forwarded, unless the schema already types extra properties.
  if (omit.length > 0) refuseUnknownProperties(schema);
  const ignore = override.ignore ?? [];
  for (const name of ignore) {
    const property = properties[name];
    if (typeof property !== "object" || property === null || Array.isArray(property)) continue;
    const own = typeof property.description === "string" ? `${property.description}\n` : "";
    properties[name] = { ...property, description: `${own}Accepted and ignored (never sent): the API sets it.` };
  }
  let required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : [];
  if (override.required) required = [...override.required];
  required = required.filter((name) => Object.hasOwn(properties, name) && !ignore.includes(name));
  if (required.length > 0) schema.required = required;
  else delete schema.required;
  if (override.minProperties !== undefined) schema.minProperties = override.minProperties;
  return omit;
}
