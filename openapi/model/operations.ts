import {
  DocumentParseError,
  HTTP_METHODS,
  type HttpMethod,
  isJsonObject,
  type JsonObject,
  type OpenApiDocument,
} from "../document/index.js";
import { derefObject } from "../references/index.js";

/** One operation of a document, with path-level and operation-level parameters merged. */
export interface OperationEntry {
  operationId: string | undefined;
  method: HttpMethod;
  path: string;
  operation: JsonObject;
  /** Parameter objects after `$ref` resolution; operation-level ones override path-level ones by (name, in). */
  parameters: JsonObject[];
}

/** Lists every operation under `paths`, in document order. */
export function listOperations(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = at(`paths.${path}`, () => derefObject(document, rawItem));
    if (!item) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      entries.push({
        operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
        method,
        path,
        operation,
        parameters: at(`${method.toUpperCase()} ${path}`, () => mergeParameters(document, item.parameters, operation.parameters)),
      });
    }
  }
  return entries;
}

/** Runs a step, naming the place in the document when a reference there is dangling or circular. */
function at<T>(place: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof DocumentParseError) throw new DocumentParseError(`${place}: ${error.message}`);
    throw error;
  }
}

/** Merges path-item and operation parameters; the operation's win for the same name and location. */
function mergeParameters(document: OpenApiDocument, pathLevel: unknown, operationLevel: unknown): JsonObject[] {
  const merged = new Map<string, JsonObject>();
  for (const list of [pathLevel, operationLevel]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = derefObject(document, raw);
      if (!parameter || typeof parameter.name !== "string" || typeof parameter.in !== "string") continue;
      merged.set(`${parameter.in}\u0000${parameter.name}`, parameter);
    }
  }
  return [...merged.values()];
}
