import { isDeepStrictEqual } from "node:util";
import { mergeParameters } from "../openapi/operations.js";
import { collectRefs, derefObject, refName, resolvePointer } from "../openapi/refs.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../openapi/types.js";
import type { LoadedApi, OperationRecord } from "./loaded-api.js";

/** One changed operation and which parts of it changed. */
export interface ChangedOperation {
  method: string;
  path: string;
  operationId: string | null;
  /** Changed parts (`parameters`, `responses`, …) and `schema:Name` for each changed component it reaches. */
  changes: string[];
}

type OperationBrief = { method: string; path: string; operationId: string | null; summary: string };

/** The difference between two loaded versions of an API. */
export interface ApiComparison {
  added: OperationBrief[];
  removed: OperationBrief[];
  changed: ChangedOperation[];
  unchanged_count: number;
  schemas: { added: string[]; removed: string[]; changed: string[] };
}

const ASPECTS = [
  "operationId",
  "summary",
  "description",
  "deprecated",
  "tags",
  "parameters",
  "requestBody",
  "responses",
  "security",
] as const;
const SCHEMA_PREFIX = "#/components/schemas/";

/** Compares operations by method and path, and component schemas by name. */
export function compareApis(base: LoadedApi, target: LoadedApi): ApiComparison {
  const key = (record: OperationRecord) => `${record.method.toUpperCase()} ${record.path}`;
  const before = new Map(base.operations.map((record) => [key(record), record]));
  const after = new Map(target.operations.map((record) => [key(record), record]));
  const schemas = compareSchemas(base, target);
  const changedSchemas = new Set(schemas.changed);
  const comparison: ApiComparison = { added: [], removed: [], changed: [], unchanged_count: 0, schemas };
  const references = new ReferenceGraph(target.document);
  for (const [id, record] of after) if (!before.has(id)) comparison.added.push(brief(record));
  for (const [id, record] of before) {
    const next = after.get(id);
    if (!next) {
      comparison.removed.push(brief(record));
      continue;
    }
    const old = aspects(base, record);
    const now = aspects(target, next);
    const changes: string[] = ASPECTS.filter((aspect) => !isDeepStrictEqual(old[aspect], now[aspect]));
    for (const name of reachableSchemas(references, now)) if (changedSchemas.has(name)) changes.push(`schema:${name}`);
    if (changes.length === 0) comparison.unchanged_count++;
    else
      comparison.changed.push({ method: record.method.toUpperCase(), path: record.path, operationId: next.operationId ?? null, changes });
  }
  return comparison;
}

function brief(record: OperationRecord): OperationBrief {
  return { method: record.method.toUpperCase(), path: record.path, operationId: record.operationId ?? null, summary: record.summary ?? "" };
}

function schemasOf(api: LoadedApi): JsonObject {
  const components = api.document.components;
  return isJsonObject(components) && isJsonObject(components.schemas) ? components.schemas : {};
}

function compareSchemas(base: LoadedApi, target: LoadedApi) {
  const old = schemasOf(base);
  const now = schemasOf(target);
  return {
    added: Object.keys(now)
      .filter((name) => !Object.hasOwn(old, name))
      .sort(),
    removed: Object.keys(old)
      .filter((name) => !Object.hasOwn(now, name))
      .sort(),
    changed: Object.keys(now)
      .filter((name) => Object.hasOwn(old, name) && !isDeepStrictEqual(old[name], now[name]))
      .sort(),
  };
}

/** The comparable parts of an operation (parameters and body resolved one level; schemas stay references). */
function aspects(api: LoadedApi, record: OperationRecord): Record<(typeof ASPECTS)[number], unknown> {
  const operation = api.operation(record);
  const item = (api.document.paths as JsonObject)[record.path] as JsonObject;
  return {
    operationId: record.operationId,
    summary: record.summary,
    description: record.description,
    deprecated: record.deprecated,
    tags: record.tags,
    parameters: mergeParameters(api.document, item.parameters, operation.parameters),
    requestBody: derefObject(api.document, operation.requestBody),
    responses: operation.responses,
    security: operation.security ?? api.document.security,
  };
}

/** Every component schema an operation reaches, following references transitively (each visited once). */
function reachableSchemas(references: ReferenceGraph, parts: Record<string, unknown>): string[] {
  const seen = new Set<string>();
  const queue: string[] = [];
  collectRefs(parts as unknown as JsonValue, (ref) => queue.push(ref));
  while (queue.length > 0) {
    const ref = queue.pop() as string;
    if (seen.has(ref)) continue;
    seen.add(ref);
    queue.push(...references.from(ref));
  }
  return [...seen]
    .filter((ref) => ref.startsWith(SCHEMA_PREFIX))
    .map(refName)
    .sort();
}

/** The `$ref`s inside each reference target, collected once per target: comparing walks names, not schemas. */
class ReferenceGraph {
  private readonly edges = new Map<string, string[]>();

  constructor(private readonly document: JsonValue) {}

  /** The references directly inside the target of `ref`. */
  from(ref: string): string[] {
    let found = this.edges.get(ref);
    if (found === undefined) {
      const refs = new Set<string>();
      const target = resolvePointer(this.document, ref);
      if (target !== undefined) collectRefs(target, (inner) => refs.add(inner));
      found = [...refs];
      this.edges.set(ref, found);
    }
    return found;
  }
}
