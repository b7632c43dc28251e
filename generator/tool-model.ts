import type { OperationEntry } from "../openapi/operations.js";
import { derefObject } from "../openapi/refs.js";
import { type HttpMethod, isJsonObject, type JsonObject, type OpenApiDocument, type ParameterObject } from "../openapi/types.js";
import { words } from "../openapi/words.js";
import type { AnnotationOverride, OperationOverride } from "./config.js";
import { UserError } from "./errors.js";
import { SchemaConverter } from "./json-schema.js";
import { didYouMean } from "./suggest.js";

/** How one tool argument reaches the upstream request. */
export interface ParameterBinding {
  /** Property name in the tool's input schema. */
  argument: string;
  /** Parameter name in the OpenAPI document (and on the wire). */
  name: string;
  in: ParameterObject["in"];
  required: boolean;
  /** Prefixes stripped from the value before it is substituted (path parameters only). */
  prefixes?: string[];
}

/** The JSON request body of a tool. */
export interface BodyBinding {
  mediaType: string;
  required: boolean;
  /** Set when the body's properties or `required` list differ from the document's schema. */
  reshape?: { omitted: string[]; required: string[] };
}

/** The response a tool's structured result comes from. */
export interface ResponseBinding {
  /** The status key in the document (`200`, `201`, `2XX`), if one is documented. */
  status?: string;
  /** The JSON media type of that response, if it has one. */
  mediaType?: string;
  /** The payload was wrapped as `{ result }` because the schema is not an object. */
  wrapped: boolean;
  /** No JSON payload is documented: an empty body (or `{}`) becomes `{ ok: true }`. */
  empty: boolean;
}

/** MCP tool annotations, every hint explicit. @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** Everything the emitters need to write one tool module. */
export interface ToolModel {
  name: string;
  title: string;
  description: string;
  operationId: string | undefined;
  method: HttpMethod;
  path: string;
  inputSchema: JsonObject;
  outputSchema: JsonObject;
  annotations: ToolAnnotations;
  parameters: ParameterBinding[];
  body?: BodyBinding;
  response: ResponseBinding;
  warnings: string[];
}

const EMPTY_OUTPUT_SCHEMA: JsonObject = { type: "object", properties: { ok: { type: "boolean" } } };
/** Headers the OpenAPI specification says a `header` parameter cannot define. */
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const PARAMETER_ORDER: ParameterObject["in"][] = ["path", "query", "header", "cookie"];

/** Builds the tool model of one selected operation. */
export function operationToTool(
  document: OpenApiDocument,
  entry: OperationEntry,
  name: string,
  override: OperationOverride,
  globalPrefixes: Record<string, string | string[]>,
): ToolModel {
  const where = entry.operationId ?? `${entry.method.toUpperCase()} ${entry.path}`;
  const input = new SchemaConverter(document, "request", where);
  const properties: JsonObject = {};
  const required: string[] = [];
  const parameters = bindParameters(entry, override, globalPrefixes, where);
  for (const binding of parameters) {
    const parameter = entry.parameters.find((p) => p.name === binding.name && p.in === binding.in) as ParameterObject;
    properties[binding.argument] = parameterSchema(input, parameter, binding);
    if (binding.required) required.push(binding.argument);
  }
  const body = bodyProperty(document, entry, override, input, where);
  if (body) {
    properties.body = body.schema;
    if (body.binding.required) required.push("body");
  }
  const inputSchema: JsonObject = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = required;
  const inputDefs = input.defsObject();
  if (inputDefs) inputSchema.$defs = inputDefs;

  const { schema: outputSchema, binding: response, warnings: outputWarnings } = outputOf(document, entry, where);
  const title = override.title ?? summaryOf(entry) ?? titleFromOperation(entry);
  return {
    name,
    title,
    description: override.description ?? descriptionOf(entry),
    operationId: entry.operationId,
    method: entry.method,
    path: entry.path,
    inputSchema,
    outputSchema,
    annotations: { title, ...annotationsFor(entry.method, override.annotations) },
    parameters,
    ...(body ? { body: body.binding } : {}),
    response,
    warnings: [...input.warnings, ...outputWarnings],
  };
}

/** Default hints by HTTP method, then the config's corrections. */
export function annotationsFor(method: HttpMethod, override: AnnotationOverride = {}): Omit<ToolAnnotations, "title"> {
  const safe = method === "get" || method === "head" || method === "options" || method === "trace";
  const hints = {
    readOnlyHint: safe,
    destructiveHint: method === "delete" || method === "put",
    idempotentHint: safe || method === "put" || method === "delete",
    openWorldHint: false,
  };
  return { ...hints, ...override };
}

function bindParameters(
  entry: OperationEntry,
  override: OperationOverride,
  globalPrefixes: Record<string, string | string[]>,
  where: string,
): ParameterBinding[] {
  const taken = new Set<string>(["body"]);
  const bindings: ParameterBinding[] = [];
  const prefixes = { ...globalPrefixes, ...override.pathPrefixes };
  const pathNames = new Set(entry.parameters.filter((p) => p.in === "path").map((p) => p.name));
  for (const name of Object.keys(override.pathPrefixes ?? {})) {
    if (!pathNames.has(name)) {
      throw new UserError(
        `overrides.${where}.pathPrefixes: "${name}" is not a path parameter of this operation${didYouMean(name, pathNames)}`,
      );
    }
  }
  const ordered = PARAMETER_ORDER.flatMap((location) => entry.parameters.filter((p) => p.in === location));
  for (const parameter of ordered) {
    if (parameter.in === "header" && RESERVED_HEADERS.has(parameter.name.toLowerCase())) continue;
    let argument = parameter.name;
    if (taken.has(argument)) argument = `${parameter.in}_${parameter.name}`;
    for (let n = 2; taken.has(argument); n++) argument = `${parameter.in}_${parameter.name}_${n}`;
    taken.add(argument);
    const binding: ParameterBinding = {
      argument,
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === "path" || parameter.required === true,
    };
    const prefix = parameter.in === "path" ? prefixes[parameter.name] : undefined;
    if (prefix !== undefined) binding.prefixes = typeof prefix === "string" ? [prefix] : [...prefix];
    bindings.push(binding);
  }
  return bindings;
}

function parameterSchema(converter: SchemaConverter, parameter: ParameterObject, binding: ParameterBinding): JsonObject {
  const raw = parameter.schema ?? firstMediaSchema(parameter as unknown as JsonObject);
  const schema = converter.convertRoot(raw);
  const notes: string[] = [];
  const description = parameter.description ?? (typeof schema.description === "string" ? schema.description : undefined);
  if (description) notes.push(description);
  if (binding.prefixes) {
    notes.push(`Also accepts the full resource name (${binding.prefixes.map((p) => `"${p}…"`).join(" or ")}).`);
  }
  if (parameter.deprecated === true) notes.push("Deprecated.");
  if (notes.length > 0) schema.description = notes.join("\n");
  return schema;
}

function firstMediaSchema(holder: JsonObject): JsonObject | undefined {
  if (!isJsonObject(holder.content)) return undefined;
  const first = Object.values(holder.content)[0];
  return isJsonObject(first) && isJsonObject(first.schema) ? first.schema : undefined;
}

/** Picks the JSON media type of a `content` map: `application/json` first, then any `+json` type. */
export function jsonMediaType(content: JsonObject | undefined): string | undefined {
  if (!content) return undefined;
  const types = Object.keys(content);
  return (
    types.find((type) => type.toLowerCase().split(";")[0]?.trim() === "application/json") ??
    types.find((type) => /^[a-z]+\/([a-z0-9.+-]+\+)?json\b/i.test(type))
  );
}

function bodyProperty(
  document: OpenApiDocument,
  entry: OperationEntry,
  override: OperationOverride,
  converter: SchemaConverter,
  where: string,
): { schema: JsonObject; binding: BodyBinding } | undefined {
  const requestBody = derefObject(document, entry.operation.requestBody);
  if (!requestBody) {
    if (override.body) throw new UserError(`overrides.${where}.body: the operation has no request body`);
    return undefined;
  }
  const content = isJsonObject(requestBody.content) ? requestBody.content : undefined;
  const mediaType = jsonMediaType(content);
  if (!mediaType || !content) {
    const types = Object.keys(content ?? {}).join(", ") || "none";
    throw new UserError(`${where}: request body media types (${types}) are not supported; only JSON bodies are`);
  }
  const media = content[mediaType];
  const schema = converter.convertRoot(isJsonObject(media) ? media.schema : undefined);
  const binding: BodyBinding = { mediaType, required: requestBody.required === true };
  if (typeof requestBody.description === "string" && schema.description === undefined) schema.description = requestBody.description;
  const original = derefObject(document, isJsonObject(media) ? media.schema : undefined);
  const originalNames = Object.keys(isJsonObject(original?.properties) ? original.properties : {});
  if (override.body) reshapeBody(schema, override.body, where);
  const finalNames = Object.keys(isJsonObject(schema.properties) ? schema.properties : {});
  const finalRequired = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const originalRequired = Array.isArray(original?.required) ? (original.required as string[]) : [];
  if (finalNames.length !== originalNames.length || finalRequired.join("\u0000") !== originalRequired.join("\u0000")) {
    binding.reshape = {
      omitted: originalNames.filter((name) => !finalNames.includes(name)),
      required: finalRequired,
    };
  }
  return { schema, binding };
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

/** The 200 (else first 2xx) response's JSON schema, always object-rooted. */
function outputOf(document: OpenApiDocument, entry: OperationEntry, where: string) {
  const responses = isJsonObject(entry.operation.responses) ? entry.operation.responses : {};
  const status = [
    "200",
    ...Object.keys(responses)
      .filter((key) => /^2(\d\d|XX)$/i.test(key))
      .sort(),
  ].find((key) => Object.hasOwn(responses, key));
  const response = status === undefined ? undefined : derefObject(document, responses[status]);
  const content = isJsonObject(response?.content) ? response.content : undefined;
  const mediaType = jsonMediaType(content);
  const media = mediaType && content ? content[mediaType] : undefined;
  const converter = new SchemaConverter(document, "response", where);
  if (!isJsonObject(media) || media.schema === undefined) {
    return {
      schema: structuredClone(EMPTY_OUTPUT_SCHEMA),
      binding: { ...(status ? { status } : {}), wrapped: false, empty: true } satisfies ResponseBinding,
      warnings: converter.warnings,
    };
  }
  const root = converter.convertRoot(media.schema);
  const isObject = isObjectSchema(document, media.schema);
  const schema: JsonObject = isObject ? root : { type: "object", properties: { result: root }, required: ["result"] };
  const defs = converter.defsObject();
  if (defs) schema.$defs = defs;
  return {
    schema,
    binding: { status, mediaType, wrapped: !isObject, empty: false } satisfies ResponseBinding,
    warnings: converter.warnings,
  };
}

/** True when every value the schema admits is a JSON object. */
function isObjectSchema(document: OpenApiDocument, node: unknown): boolean {
  const schema = derefObject(document, node as JsonObject);
  if (!schema) return false;
  if (schema.type === "object") return schema.nullable !== true;
  if (schema.type !== undefined) return false;
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) return list.length > 0 && list.every((branch) => isObjectSchema(document, branch));
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.some((branch) => isObjectSchema(document, branch));
  return isJsonObject(schema.properties);
}

function summaryOf(entry: OperationEntry): string | undefined {
  const summary = entry.operation.summary;
  return typeof summary === "string" && summary.trim() !== "" ? summary.trim() : undefined;
}

function titleFromOperation(entry: OperationEntry): string {
  const id = entry.operationId;
  const source = id ? (id.split(/[_/.]/).filter(Boolean).at(-1) ?? id) : `${entry.method} ${entry.path}`;
  const text = words(source).join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function descriptionOf(entry: OperationEntry): string {
  const { summary, description, deprecated } = entry.operation;
  const parts: string[] = [];
  if (typeof description === "string" && description.trim() !== "") parts.push(description.trim());
  else if (typeof summary === "string" && summary.trim() !== "") parts.push(summary.trim());
  else parts.push(`${entry.method.toUpperCase()} ${entry.path}`);
  if (deprecated === true) parts.push("Deprecated.");
  return parts.join("\n\n");
}
