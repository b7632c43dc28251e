import { closest, excerpt, nearest } from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../../openapi/document/index.js";
import type { OperationModel, Schema } from "../../openapi/model/index.js";
import type { LoadedApi } from "./loaded-api.js";
import { ToolFailure } from "./tool-failure.js";

/** `/users/{id}` and `/users/{userId}` name the same route. */
function routeShape(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  return path
    .slice(0, end)
    .replace(/\{[^{}]*\}/g, "{}")
    .toLowerCase();
}

/** A path of the document: exact, else the same route with other parameter names, else a failure with suggestions. */
export function findPath(api: LoadedApi, path: string): string {
  const paths = api.model.paths;
  if (paths.includes(path)) return path;
  const shape = routeShape(path.startsWith("/") ? path : `/${path}`);
  const same = paths.find((candidate) => routeShape(candidate) === shape);
  if (same) return same;
  throw new ToolFailure(`Path '${excerpt(path)}' not found in API '${api.name}'. Closest paths: ${nearest(path, paths).join(", ")}`);
}

/** An operation by operationId (case-insensitive as a fallback), or a failure with the closest ids. */
export function findOperation(api: LoadedApi, operationId: string): OperationModel {
  const exact = api.byOperationId.get(operationId);
  if (exact) return exact;
  const ids = [...api.byOperationId.keys()];
  const folded = [...api.byOperationId].find(([id]) => id.toLowerCase() === operationId.toLowerCase());
  if (folded) return folded[1];
  const hint = ids.length === 0 ? "The document has no operationIds." : `Closest operationIds: ${nearest(operationId, ids).join(", ")}`;
  throw new ToolFailure(`Operation '${excerpt(operationId)}' not found in API '${api.name}'. ${hint}`);
}

/** A component schema by name, or a failure with the closest names. */
export function findSchema(api: LoadedApi, name: string): { name: string; schema: Schema; written: JsonObject } {
  const schemas = api.model.schemas.named;
  const found = (key: string, schema: Schema) => ({
    name: key,
    schema,
    written: typeof schema === "object" && schema !== null ? schema.source : { schema },
  });
  const exact = schemas.get(name);
  if (exact !== undefined) return found(name, exact);
  const names = [...schemas.keys()];
  const folded = [...schemas].find(([candidate]) => candidate.toLowerCase() === name.toLowerCase());
  if (folded) return found(...folded);
  const hint =
    names.length === 0
      ? "The document defines no schemas."
      : `Closest schemas: ${nearest(name, names).join(", ")} (${names.length} in all)`;
  throw new ToolFailure(`Schema '${excerpt(name)}' not found in API '${api.name}'. ${hint}`);
}

/** A tag by name (case-insensitive), or a failure naming the closest and some existing tags. */
export function findTag(api: LoadedApi, tag: string): string {
  const tags = api.tags().map((entry) => entry.name);
  const match = tags.find((candidate) => candidate.toLowerCase() === tag.toLowerCase());
  if (match) return match;
  const suggestion = closest(tag, tags);
  const listed = tags.slice(0, 20).join(", ");
  throw new ToolFailure(
    `Tag '${excerpt(tag)}' not found in API '${api.name}'.${suggestion ? ` Did you mean '${suggestion}'?` : ""} Available tags: ${listed}${tags.length > 20 ? ", …" : ""}`,
  );
}
