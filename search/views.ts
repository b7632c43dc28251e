import { setOwn } from "oapi-mcp-gen-runtime";
import { mergeParameters } from "../openapi/operations.js";
import { collectRefs, derefObject, refName, resolvePointer } from "../openapi/refs.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../openapi/types.js";
import type { LoadedApi, OperationRecord } from "./loaded-api.js";

const SCHEMA_REF = "#/components/schemas/";

/** Options of the detail views. */
export interface ViewOptions {
  /** How many levels of schema `$ref`s to inline (0 keeps every `$ref`). @default 0 */
  inlineDepth: number;
}

/** The effective operation view: merged parameters, resolved request body and responses, effective security. */
export function operationView(api: LoadedApi, record: OperationRecord, options: ViewOptions): JsonObject {
  const document = api.document;
  const operation = api.operation(record);
  const pathItem = (document.paths as JsonObject)[record.path] as JsonObject;
  const parameters = mergeParameters(document, pathItem.parameters, operation.parameters) as unknown as JsonValue[];
  const requestBody = derefObject(document, operation.requestBody);
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(isJsonObject(operation.responses) ? operation.responses : {})) {
    setOwn(responses, status, derefObject(document, response) ?? response);
  }
  const view: JsonObject = {
    summary: record.summary ?? "",
    description: record.description ?? "",
    operationId: record.operationId ?? null,
    tags: record.tags,
    deprecated: record.deprecated,
    parameters,
    requestBody: requestBody ?? null,
    responses,
    ...effectiveSecurity(api, operation),
  };
  const inlined = inlineSchemas(api, view, options.inlineDepth);
  const result = inlined.value as JsonObject;
  result.referenced_schemas = referencedSchemas(result);
  if (!inlined.complete) result.inline_note = INLINE_STOPPED;
  return result;
}

/** Operation security overrides the global one; an empty requirement list means the operation is public. */
export function effectiveSecurity(api: LoadedApi, operation: JsonObject): JsonObject {
  const own = Array.isArray(operation.security) ? operation.security : undefined;
  const global = Array.isArray(api.document.security) ? api.document.security : undefined;
  const security = own ?? global ?? [];
  const isPublic =
    security.length === 0 || security.some((requirement) => isJsonObject(requirement) && Object.keys(requirement).length === 0);
  return { security, security_source: own ? "operation" : global ? "global" : "none", public: isPublic };
}

/** A component schema with its references listed (and optionally inlined). */
export function schemaView(api: LoadedApi, name: string, schema: JsonValue, options: ViewOptions): JsonObject {
  const inlined = inlineSchemas(api, schema, options.inlineDepth, new Set([name]));
  const body = isJsonObject(inlined.value) ? inlined.value : { schema: inlined.value };
  return {
    schema_name: name,
    ...body,
    referenced_schemas: referencedSchemas(inlined.value).filter((ref) => ref !== name),
    ...(inlined.complete ? {} : { inline_note: INLINE_STOPPED }),
  };
}

/** Names of the component schemas a view still refers to: what the caller may fetch next. */
export function referencedSchemas(value: JsonValue): string[] {
  const names = new Set<string>();
  collectRefs(value, (ref) => {
    if (ref.startsWith(SCHEMA_REF)) names.add(refName(ref));
  });
  return [...names].sort();
}

/** How many JSON nodes inlining may produce for one view: depth alone does not bound fan-out (10 refs × 10 × 10 …). */
export const MAX_INLINED_NODES = 20_000;

/** What inlining may still produce, whether it stopped early, and each target's size (measured once). */
interface InlineBudget {
  remaining: number;
  exhausted: boolean;
  sizes: Map<string, number>;
}

/** JSON nodes in a value (iteratively). */
function nodeCount(value: JsonValue): number {
  let count = 0;
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const node = stack.pop() as JsonValue;
    count++;
    if (typeof node === "object" && node !== null) for (const child of Object.values(node)) stack.push(child);
  }
  return count;
}

/** Inlines up to `depth` levels within the node budget; once it is spent, the remaining `$ref`s stay as they are. */
function inlineSchemas(
  api: LoadedApi,
  value: JsonValue,
  depth: number,
  stack: ReadonlySet<string> = new Set(),
): { value: JsonValue; complete: boolean } {
  const budget: InlineBudget = { remaining: MAX_INLINED_NODES, exhausted: false, sizes: new Map() };
  const inlined = inlineWithin(api, value, depth, stack, budget);
  return { value: inlined, complete: !budget.exhausted };
}

/** Replaces schema `$ref`s by their targets up to `depth` levels; a cycle keeps its `$ref` and says so. */
function inlineWithin(api: LoadedApi, value: JsonValue, depth: number, stack: ReadonlySet<string>, budget: InlineBudget): JsonValue {
  if (depth <= 0) return value;
  budget.remaining--;
  if (Array.isArray(value)) return value.map((item) => inlineWithin(api, item, depth, stack, budget));
  if (!isJsonObject(value)) return value;
  const ref = typeof value.$ref === "string" ? value.$ref : undefined;
  if (ref?.startsWith(SCHEMA_REF)) {
    const name = refName(ref);
    if (stack.has(name)) return { ...value, "x-circular": true };
    const target = resolvePointer(api.document, ref);
    if (!isJsonObject(target)) return value;
    // Every copy of a target costs its whole size, whether or not its own references are inlined in turn.
    let size = budget.sizes.get(ref);
    if (size === undefined) {
      size = nodeCount(target);
      budget.sizes.set(ref, size);
    }
    if (size > budget.remaining) {
      budget.exhausted = true;
      return value;
    }
    budget.remaining -= size;
    const { $ref: _, ...siblings } = value;
    return inlineWithin(api, { ...target, ...siblings }, depth - 1, new Set([...stack, name]), budget);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlineWithin(api, item, depth, stack, budget)]));
}

/** The note a view carries when inlining stopped at its budget. */
const INLINE_STOPPED = `inlining stopped after ${MAX_INLINED_NODES} nodes; the remaining $refs are listed in referenced_schemas`;
