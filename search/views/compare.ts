import { isDeepStrictEqual } from "node:util";
import type { JsonValue } from "../../openapi/document/index.js";
import type { OperationModel, SchemaCatalog } from "../../openapi/model/index.js";
import type { LoadedApi } from "../documents/index.js";
import { operationBrief } from "./views.js";

/** One changed operation and which parts of it changed. */
export type ChangedOperation = {
  method: string;
  path: string;
  operationId: string | null;
  /** Changed parts (`parameters`, `responses`, …) and `schema:Name` for each changed component it reaches. */
  changes: string[];
};

type OperationBrief = { method: string; path: string; operationId: string | null; summary: string };

/** The difference between two loaded versions of an API. */
export type ApiComparison = {
  added: OperationBrief[];
  removed: OperationBrief[];
  changed: ChangedOperation[];
  unchanged_count: number;
  schemas: { added: string[]; removed: string[]; changed: string[] };
};

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

/** Compares operations by method and path, and component schemas by name. */
export function compareApis(base: LoadedApi, target: LoadedApi): ApiComparison {
  const key = (record: OperationModel) => `${record.method.toUpperCase()} ${record.path}`;
  const before = new Map(base.operations.map((record) => [key(record), record]));
  const after = new Map(target.operations.map((record) => [key(record), record]));
  const schemas = compareSchemas(base, target);
  const changedSchemas = new Set(schemas.changed);
  const comparison: ApiComparison = { added: [], removed: [], changed: [], unchanged_count: 0, schemas };
  for (const [id, record] of after) if (!before.has(id)) comparison.added.push(brief(record));
  for (const [id, record] of before) {
    const next = after.get(id);
    if (!next) {
      comparison.removed.push(brief(record));
      continue;
    }
    const old = aspects(record);
    const now = aspects(next);
    const changes: string[] = ASPECTS.filter((aspect) => !isDeepStrictEqual(old[aspect], now[aspect]));
    for (const name of reachableSchemas(target.model.schemas, next)) if (changedSchemas.has(name)) changes.push(`schema:${name}`);
    if (changes.length === 0) comparison.unchanged_count++;
    else
      comparison.changed.push({ method: record.method.toUpperCase(), path: record.path, operationId: next.operationId ?? null, changes });
  }
  return comparison;
}

function brief(record: OperationModel): OperationBrief {
  return {
    method: record.method.toUpperCase(),
    path: record.path,
    operationId: record.operationId ?? null,
    summary: operationBrief(record),
  };
}

/** The component schemas of an API as written, by name. */
function schemasOf(api: LoadedApi): Map<string, JsonValue> {
  const written = new Map<string, JsonValue>();
  for (const [name, schema] of api.model.schemas.named)
    written.set(name, typeof schema === "object" && schema !== null ? schema.source : schema);
  return written;
}

function compareSchemas(base: LoadedApi, target: LoadedApi) {
  const old = schemasOf(base);
  const now = schemasOf(target);
  const names = (map: Map<string, JsonValue>, keep: (name: string) => boolean) => [...map.keys()].filter(keep).sort();
  return {
    added: names(now, (name) => !old.has(name)),
    removed: names(old, (name) => !now.has(name)),
    changed: names(now, (name) => old.has(name) && !isDeepStrictEqual(old.get(name), now.get(name))),
  };
}

/** The comparable parts of an operation (parameters and body resolved one level; schemas stay references). */
function aspects(record: OperationModel): Record<(typeof ASPECTS)[number], unknown> {
  return {
    operationId: record.operationId,
    summary: record.summary,
    description: record.description,
    deprecated: record.deprecated,
    tags: record.tags,
    parameters: record.parameters.map((parameter) => parameter.declared),
    requestBody: record.requestBody?.declared,
    responses: record.declared.responses,
    security: record.security.requirements,
  };
}

/** Every component schema an operation reaches through its parameters, body and responses. */
function reachableSchemas(schemas: SchemaCatalog, operation: OperationModel): string[] {
  const parts: JsonValue = [
    operation.parameters.map((parameter) => parameter.declared),
    operation.requestBody?.declared ?? null,
    operation.declared.responses ?? null,
  ];
  return schemas.reachableNames(parts);
}
