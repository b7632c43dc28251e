import { type OutputValidation, type ToolAnnotations as RuntimeToolAnnotations, setOwn } from "oapi-mcp-gen-runtime";
import type { OperationEntry } from "../openapi/operations.js";
import type { HttpMethod, JsonObject, OpenApiDocument, ParameterObject } from "../openapi/types.js";
import { words } from "../openapi/words.js";
import type { AnnotationOverride, OperationOverride } from "./config.js";
import { SchemaConverter } from "./json-schema.js";
import { bindParameters, completePathParameters, type ParameterBinding, parameterSchema } from "./parameters.js";
import { type BodyBinding, bodyProperty } from "./request-body.js";
import { outputOf, type ResponseBinding } from "./response-output.js";
import { operationSecurity, type SecurityRequirement } from "./security.js";

export type { BodyBinding, ParameterBinding, ResponseBinding };

/** MCP tool annotations as the runtime lists them, with the title always set. */
export type ToolAnnotations = RuntimeToolAnnotations & { readonly title: string };

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
  /** How the runtime checks results (the config's `output.validate`, per operation or global). */
  outputValidation: OutputValidation;
  /** False when the config dropped the output schema (`overrides.<id>.output.schema: false`). */
  publishOutputSchema: boolean;
  annotations: ToolAnnotations;
  parameters: ParameterBinding[];
  body?: BodyBinding;
  response: ResponseBinding;
  /** Security requirement alternatives; undefined when the document declares none. */
  security?: SecurityRequirement[];
  warnings: string[];
}

/** Builds the tool model of one selected operation. */
export function operationToTool(
  document: OpenApiDocument,
  entry: OperationEntry,
  name: string,
  override: OperationOverride,
  globalPrefixes: Record<string, string | string[]>,
  outputValidation: OutputValidation = "warn",
): ToolModel {
  const where = entry.operationId ?? `${entry.method.toUpperCase()} ${entry.path}`;
  const input = new SchemaConverter(document, "request", where);
  const properties: JsonObject = {};
  const required: string[] = [];
  const completed = completePathParameters(entry, where);
  entry = { ...entry, parameters: completed.parameters };
  const parameters = bindParameters(entry, override, globalPrefixes, where);
  for (const binding of parameters) {
    const parameter = entry.parameters.find((p) => p.name === binding.name && p.in === binding.in) as ParameterObject;
    setOwn(properties, binding.argument, parameterSchema(input, parameter, binding));
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
  const security = operationSecurity(document, entry);
  return {
    name,
    title,
    description: withReadOnlyNote(override.description ?? descriptionOf(entry), body?.binding.readOnly),
    operationId: entry.operationId,
    method: entry.method,
    path: entry.path,
    inputSchema,
    outputSchema,
    outputValidation: override.output?.validate ?? outputValidation,
    publishOutputSchema: override.output?.schema !== false,
    annotations: { title, ...annotationsFor(entry.method, override.annotations) },
    parameters,
    ...(body ? { body: body.binding } : {}),
    response,
    ...(security ? { security } : {}),
    warnings: [...completed.warnings, ...(body?.warnings ?? []), ...input.warnings, ...outputWarnings],
  };
}

/** Says which read-only body fields the tool accepts and ignores (so a read result can be sent back as it is). */
function withReadOnlyNote(description: string, readOnly: readonly string[] | undefined): string {
  if (!readOnly || readOnly.length === 0) return description;
  const note = `Read-only fields of the body (${readOnly.join(", ")}) may be sent back and are ignored.`;
  return description ? `${description}\n\n${note}` : note;
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
