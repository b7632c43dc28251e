import { listOperations } from "../openapi/operations.js";
import { collectRefs, resolvePointer } from "../openapi/refs.js";
import { type HttpMethod, isJsonObject, type JsonObject, type OpenApiDocument } from "../openapi/types.js";
import { OperationSearchIndex } from "./search-index.js";

/** One operation as the search server indexes it. */
export interface OperationRecord {
  /** Position in document order. */
  id: number;
  path: string;
  method: HttpMethod;
  operationId?: string;
  summary?: string;
  description?: string;
  tags: string[];
  deprecated: boolean;
}

/** What `load_openapi` and `list_apis` say about a document. */
export interface ApiSummary {
  name: string;
  title: string;
  version: string;
  description: string;
  servers: string[];
  paths_count: number;
  tags_count: number;
}

/** A loaded, indexed OpenAPI document (Swagger 2.0 already converted to 3.0). */
export class LoadedApi {
  readonly operations: OperationRecord[];
  readonly byOperationId = new Map<string, OperationRecord>();
  readonly warnings: string[];
  private searchIndex: OperationSearchIndex | undefined;

  constructor(
    readonly name: string,
    readonly document: OpenApiDocument,
    readonly sourceVersion: string,
    readonly origin: string,
    readonly loadedAt: string,
    loadWarnings: readonly string[],
  ) {
    this.operations = listOperations(document).map((entry, id) => {
      const { summary, description, tags, deprecated } = entry.operation;
      return {
        id,
        path: entry.path,
        method: entry.method,
        ...(entry.operationId ? { operationId: entry.operationId } : {}),
        ...(typeof summary === "string" ? { summary } : {}),
        ...(typeof description === "string" ? { description } : {}),
        tags: Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === "string") : [],
        deprecated: deprecated === true,
      };
    });
    const warnings = [...loadWarnings];
    const duplicates = new Set<string>();
    for (const record of this.operations) {
      if (!record.operationId) continue;
      if (this.byOperationId.has(record.operationId)) duplicates.add(record.operationId);
      else this.byOperationId.set(record.operationId, record);
    }
    const missing = this.operations.filter((record) => !record.operationId).length;
    if (missing > 0) warnings.push(`${missing} operation(s) have no operationId; find them with search_endpoints or get_path_details`);
    if (duplicates.size > 0)
      warnings.push(`duplicate operationIds (the first occurrence is indexed): ${[...duplicates].slice(0, 10).join(", ")}`);
    warnings.push(...referenceWarnings(document));
    this.warnings = warnings;
  }

  /** Title, version, servers and counts. */
  summary(): ApiSummary {
    const info = isJsonObject(this.document.info) ? this.document.info : {};
    return {
      name: this.name,
      title: typeof info.title === "string" ? info.title : "",
      version: typeof info.version === "string" ? info.version : "",
      description: typeof info.description === "string" ? info.description : "",
      servers: (Array.isArray(this.document.servers) ? this.document.servers : [])
        .map((server) => (isJsonObject(server) && typeof server.url === "string" ? server.url : undefined))
        .filter((url): url is string => url !== undefined),
      paths_count: isJsonObject(this.document.paths) ? Object.keys(this.document.paths).length : 0,
      tags_count: this.tags().length,
    };
  }

  /** Root `tags` (with descriptions), then any tag operations use that the root list lacks. */
  tags(): { name: string; description: string }[] {
    const tags = new Map<string, string>();
    for (const tag of Array.isArray(this.document.tags) ? this.document.tags : []) {
      if (isJsonObject(tag) && typeof tag.name === "string") tags.set(tag.name, typeof tag.description === "string" ? tag.description : "");
    }
    for (const record of this.operations) for (const tag of record.tags) if (!tags.has(tag)) tags.set(tag, "");
    return [...tags].map(([name, description]) => ({ name, description }));
  }

  /** The ranked full-text index, built on first use. */
  index(): OperationSearchIndex {
    this.searchIndex ??= new OperationSearchIndex(
      this.operations.map((record) => ({
        id: record.id,
        path: record.path,
        method: record.method,
        operationId: record.operationId ?? "",
        summary: record.summary ?? "",
        description: record.description ?? "",
        tags: record.tags.join(" "),
        parameters: parameterNames(this.document, record),
      })),
    );
    return this.searchIndex;
  }

  /** The operation object of a record. */
  operation(record: OperationRecord): JsonObject {
    const item = (this.document.paths as JsonObject)[record.path] as JsonObject;
    return item[record.method] as JsonObject;
  }
}

function parameterNames(document: OpenApiDocument, record: OperationRecord): string {
  const item = (document.paths as JsonObject)[record.path];
  const operation = isJsonObject(item) ? item[record.method] : undefined;
  const names: string[] = [];
  for (const list of [isJsonObject(item) ? item.parameters : undefined, isJsonObject(operation) ? operation.parameters : undefined]) {
    if (!Array.isArray(list)) continue;
    for (const parameter of list) {
      const resolved = isJsonObject(parameter) && typeof parameter.$ref === "string" ? resolvePointer(document, parameter.$ref) : parameter;
      if (isJsonObject(resolved) && typeof resolved.name === "string") names.push(resolved.name);
    }
  }
  return names.join(" ");
}

/** Warns about `$ref`s that point nowhere in the document and about external ones, which are not followed. */
function referenceWarnings(document: OpenApiDocument): string[] {
  const dangling = new Set<string>();
  const external = new Set<string>();
  collectRefs(document, (ref) => {
    if (!ref.startsWith("#")) external.add(ref);
    else if (resolvePointer(document, ref) === undefined) dangling.add(ref);
  });
  const warnings: string[] = [];
  if (dangling.size > 0)
    warnings.push(`${dangling.size} unresolvable $ref(s): ${[...dangling].slice(0, 5).join(", ")}${dangling.size > 5 ? ", …" : ""}`);
  if (external.size > 0)
    warnings.push(
      `${external.size} external $ref(s) are not followed: ${[...external].slice(0, 5).join(", ")}${external.size > 5 ? ", …" : ""}`,
    );
  return warnings;
}
