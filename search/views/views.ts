import { firstSentence, setOwn } from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../../openapi/document/index.js";
import type { OperationModel, SecurityModel } from "../../openapi/model/index.js";
import { inlineSchemas, MAX_INLINED_NODES, referencedSchemas } from "../../openapi/references/index.js";
import type { LoadedApi } from "../documents/index.js";

/** Options of the detail views. */
export interface ViewOptions {
  /** How many levels of schema `$ref`s to inline (0 keeps every `$ref`). @default 0 */
  inlineDepth: number;
}

/**
 * What a list of operations shows for one: its summary, or where the document gives none (Stripe's operations have
 * descriptions only) the first sentence of its description.
 */
export function operationBrief(operation: Pick<OperationModel, "summary" | "description">): string {
  const summary = operation.summary?.trim();
  if (summary) return summary;
  // Stripe's descriptions are HTML paragraphs: the words, not the tags.
  return operation.description ? firstSentence(operation.description.replace(/<\/?[a-z][^<>]*>/gi, "")) : "";
}

/** The effective operation view: merged parameters, resolved request body and responses, effective security. */
export function operationView(api: LoadedApi, operation: OperationModel, options: ViewOptions): JsonObject {
  const responses: JsonObject = {};
  for (const response of operation.responses) setOwn(responses, response.status, response.declared);
  const view: JsonObject = {
    summary: operation.summary ?? "",
    description: operation.description ?? "",
    operationId: operation.operationId ?? null,
    tags: [...operation.tags],
    deprecated: operation.deprecated,
    parameters: operation.parameters.map((parameter) => parameter.declared),
    requestBody: operation.requestBody?.declared ?? null,
    responses,
    ...securityView(operation.security),
  };
  const inlined = inlineSchemas(api.model.document, view, options.inlineDepth);
  return {
    ...inlined.value,
    referenced_schemas: referencedSchemas(inlined.value),
    ...(inlined.complete ? {} : { inline_note: INLINE_STOPPED }),
  };
}

/** Operation security overrides the global one; an empty requirement list means the operation is public. */
export function securityView(security: SecurityModel): JsonObject {
  return {
    security: security.requirements.map((requirement) => ({ ...requirement })),
    security_source: security.source,
    public: security.public,
  };
}

/** A component schema with its references listed (and optionally inlined). */
export function schemaView(api: LoadedApi, name: string, schema: JsonObject, options: ViewOptions): JsonObject {
  const inlined = inlineSchemas(api.model.document, schema, options.inlineDepth, new Set([name]));
  return {
    schema_name: name,
    ...inlined.value,
    referenced_schemas: referencedSchemas(inlined.value).filter((ref) => ref !== name),
    ...(inlined.complete ? {} : { inline_note: INLINE_STOPPED }),
  };
}

/** The note a view carries when inlining stopped at its budget. */
const INLINE_STOPPED = `inlining stopped after ${MAX_INLINED_NODES} nodes; the remaining $refs are listed in referenced_schemas`;
