import { didYouMean, type OutputValidation, type ToolAnnotations as RuntimeToolAnnotations, setOwn, words } from "oapi-mcp-gen-runtime";
import type { HttpMethod, JsonObject } from "../../openapi/document/index.js";
import { type ApiModel, markdownText, type OperationModel } from "../../openapi/model/index.js";
import type { ToolView } from "../../templates/tool-view.js";
import { UserError } from "../base/errors.js";
import { type OperationAction, operationAction } from "../base/operation-action.js";
import { type OperationTraits, operationTraits } from "../base/operation-traits.js";
import type { AnnotationOverride, OperationOverride } from "../config/config.js";
import { type DefinitionMemo, SchemaConverter } from "../schema/json-schema.js";
import { bindParameters, checkPathParameters, type ParameterBinding, type ParameterGlobals, parameterSchema } from "./parameters.js";
import { type BodyBinding, bodyProperty } from "./request-body.js";
import { outputOf, type ResponseBinding } from "./response-output.js";
import type { SecurityRequirement } from "./security.js";
import { inLatin } from "./tool-name.js";

export type { BodyBinding, ParameterBinding, ResponseBinding };

/** MCP tool annotations as the runtime lists them, with the title always set. */
export type ToolAnnotations = RuntimeToolAnnotations & { readonly title: string };

/**
 * Everything the emitters need to write one tool module: what the templates write from (`ToolView`), with the
 * generator's own, narrower types and the warnings the model stage noticed.
 */
export interface ToolModel extends ToolView {
  method: HttpMethod;
  inputSchema: JsonObject;
  outputSchema: JsonObject;
  annotations: ToolAnnotations;
  parameters: ParameterBinding[];
  undeclaredParameters: string[];
  body?: BodyBinding;
  response: ResponseBinding;
  /** Security requirement alternatives; undefined when the document declares none. */
  security?: SecurityRequirement[];
  /** Scopes the config names for the tool (resource mode), besides the document's. */
  scopes?: string[];
  warnings: string[];
}

/** The definitions converted so far for requests and for responses, shared by the tools of one run. */
export interface DirectionMemos {
  request: DefinitionMemo;
  response: DefinitionMemo;
}

/** Builds the tool model of one selected operation. */
export function operationToTool(
  model: ApiModel,
  operation: OperationModel,
  name: string,
  override: OperationOverride,
  globals: ParameterGlobals,
  outputValidation: OutputValidation = "warn",
  memos?: DirectionMemos,
): ToolModel {
  const where = operation.operationId ?? `${operation.method.toUpperCase()} ${operation.path}`;
  checkPathParameters(operation, where);
  const input = new SchemaConverter(model.schemas, "request", where, memos?.request);
  const properties: JsonObject = {};
  const required: string[] = [];
  const parameterWarnings: string[] = [];
  const parameters = bindParameters(operation, override, globals, where, parameterWarnings);
  for (const { binding, parameter } of parameters) {
    // The server supplies it: no caller sees or sets it.
    if (binding.source !== undefined) continue;
    setOwn(properties, binding.argument, parameterSchema(input, parameter, binding));
    if (binding.required) required.push(binding.argument);
  }
  const body = bodyProperty(model.schemas, operation, override, input, where, globals.parameters, globals.schemas?.closedBodies === true);
  const declaredNames = new Set([...operation.parameters.map((p) => p.name), ...bodyPropertyNames(model, operation)]);
  const unknown = Object.keys(override.parameters ?? {}).filter((name) => !declaredNames.has(name));
  if (unknown.length > 0)
    throw new UserError(
      unknown.map(
        (name) =>
          `overrides.${where}.parameters: "${name}" is not a parameter or body property of this operation${didYouMean(name, declaredNames)}`,
      ),
    );
  if (body) {
    properties.body = body.schema;
    if (body.binding.required) required.push("body");
  }
  const inputSchema: JsonObject = { type: "object", properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = required;
  const inputDefs = input.defsObject();
  if (inputDefs) inputSchema.$defs = inputDefs;

  const output = outputOf(model.schemas, operation, where, memos?.response);
  const title = override.title ?? summaryOf(operation) ?? titleFromOperation(operation);
  const security = operation.security;
  return {
    name,
    title,
    description: withReadOnlyNote(override.description ?? descriptionOf(operation), body?.binding.readOnly),
    operationId: operation.operationId,
    ...(operation.deprecated ? { deprecated: true } : {}),
    method: operation.method,
    path: operation.path,
    inputSchema,
    outputSchema: output.schema,
    outputValidation: override.output?.validate ?? outputValidation,
    publishOutputSchema: override.output?.schema !== false,
    annotations: {
      title,
      ...annotationsFor(operation.method, override.annotations, operationAction(operation), operationTraits(operation)),
    },
    parameters: parameters.map(({ binding }) => binding),
    undeclaredParameters: parameters.filter(({ parameter }) => parameter.synthesized).map(({ binding }) => binding.argument),
    ...(body ? { body: body.binding } : {}),
    response: output.binding,
    ...(security.source !== "none" ? { security: security.requirements.map((requirement) => ({ ...requirement })) } : {}),
    ...(override.scopes && override.scopes.length > 0 ? { scopes: [...override.scopes] } : {}),
    warnings: [...operation.warnings, ...parameterWarnings, ...(body?.warnings ?? []), ...input.warnings, ...output.warnings],
  };
}

/** The top-level property names of the operation's request body (every media type), for the config's `parameters`. */
export function bodyPropertyNames(model: ApiModel, operation: OperationModel): string[] {
  return (operation.requestBody?.content ?? []).flatMap((media) => [...(model.schemas.deref(media.schema)?.properties?.keys() ?? [])]);
}

/** Says which body fields the tool accepts and ignores (read-only or ignored by the config), so a read result can be sent back as it is. */
function withReadOnlyNote(description: string, readOnly: readonly string[] | undefined): string {
  if (!readOnly || readOnly.length === 0) return description;
  const note = `Fields of the body the API sets itself (${readOnly.join(", ")}) may be sent back and are ignored.`;
  return description ? `${description}\n\n${note}` : note;
}

/**
 * Hints by the operation's meaning as well as its method, then the config's corrections: a create sent with PUT is not
 * destructive, a delete or cancel sent with POST is, a replace overwrites, a send reaches the world outside the API.
 */
export function annotationsFor(
  method: HttpMethod,
  override: AnnotationOverride = {},
  action?: OperationAction,
  traits?: Partial<OperationTraits>,
): Omit<ToolAnnotations, "title"> {
  // A POST that only reads by its words (a search, a validation) is as safe as a GET; one that signs in, issues a
  // token or starts a session is not, whatever its first verb ("Retrieve a temporary access token").
  const readsByWords = action === "read" && method === "post" && traits?.signsIn !== true;
  const safe = method === "get" || method === "head" || method === "options" || method === "trace" || readsByWords;
  const removes = action === "delete" || action === "cancel";
  const readOnly = safe && !removes && action !== "send";
  const byMethod = method === "delete" || method === "put";
  // Destructive by consequence: turning something off, archiving, a bulk change, an instance-wide switch; a sort
  // order or position only reorders (nothing lost), whatever its method.
  const consequence = traits?.switchesOff === true || traits?.bulk === true || traits?.instanceWide === true;
  const overwrites = (action === "replace" || (byMethod && action !== "create")) && traits?.ordersOnly !== true;
  const destructive = !readOnly && (removes || consequence || overwrites);
  const hints = {
    readOnlyHint: readOnly,
    destructiveHint: destructive,
    idempotentHint: readOnly || ((method === "put" || method === "delete") && action !== "send"),
    openWorldHint: action === "send",
  };
  return { ...hints, ...override };
}

function summaryOf(operation: OperationModel): string | undefined {
  const summary = operation.summary?.trim();
  // Trello's summaries repeat the operationId (`getCardsByIdCard()`): they name nothing.
  const id = operation.operationId?.toLowerCase();
  if (!summary || (id !== undefined && summary.toLowerCase().replace(/\(\)$/, "") === id)) return leadOf(operation);
  return summary;
}

/**
 * For an operationId that only spells its method and path (Stripe's `PostCustomers`), the first sentence of the
 * description says what the operation does (`Creates a new customer object`): it is the title then, when short.
 */
function leadOf(operation: OperationModel): string | undefined {
  const id = operation.operationId ?? "";
  if (!/^(?:[Gg]et|[Pp]ost|[Pp]ut|[Pp]atch|[Dd]elete)(?:[A-Z_-]|$)/.test(id) || operation.description === undefined) return undefined;
  const paragraph = markdownText(operation.description.trim()).split(/\n\s*\n/)[0] ?? "";
  const sentence = (/^[\s\S]*?[.!?](?=\s|$)/.exec(paragraph)?.[0] ?? paragraph)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!]$/, "");
  return sentence.length > 0 && sentence.length <= 100 ? sentence : undefined;
}

/** A title from the operationId's last segment, transliterated as tool names are; else the method and path. */
function titleFromOperation(operation: OperationModel): string {
  const id = operation.operationId;
  const source = id ? (id.split(/[_/.]/).filter(Boolean).at(-1) ?? id) : "";
  const text = words(inLatin(source)).join(" ") || words(`${operation.method} ${operation.path}`).join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function descriptionOf(operation: OperationModel): string {
  const { summary, description, deprecated } = operation;
  const parts: string[] = [];
  if (description !== undefined && description.trim() !== "") parts.push(markdownText(description.trim()));
  else if (summary !== undefined && summary.trim() !== "") parts.push(markdownText(summary.trim()));
  else parts.push(`${operation.method.toUpperCase()} ${operation.path}`);
  if (deprecated) parts.push("Deprecated.");
  return parts.join("\n\n");
}
