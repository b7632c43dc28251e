import { OperationSearchIndex, type SearchableOperation } from "oapi-mcp-gen-runtime/operation-index";
import type { OpenApiDocument } from "../../openapi/document/index.js";
import { type ApiModel, buildApiModel, type OperationModel } from "../../openapi/model/index.js";
import { graphqlField } from "./graphql-field.js";

/** What `load_openapi` and `list_apis` say about a document. */
export type ApiSummary = {
  name: string;
  title: string;
  version: string;
  description: string;
  servers: string[];
  paths_count: number;
  tags_count: number;
};

/** A loaded, indexed OpenAPI document (Swagger 2.0 already converted to 3.0), read into the shared model. */
export class LoadedApi {
  readonly model: ApiModel;
  readonly byOperationId = new Map<string, OperationModel>();
  readonly warnings: string[];
  private searchIndex: OperationSearchIndex | undefined;

  constructor(
    readonly name: string,
    document: OpenApiDocument,
    readonly sourceVersion: string,
    readonly origin: string,
    readonly loadedAt: string,
    /** What reading the document warned of (the rest of `warnings` is told from the model). */
    readonly loadWarnings: readonly string[],
    model?: ApiModel,
  ) {
    // The kind (OpenAPI or GraphQL) is told by the source version; see kind().
    this.model = model ?? buildApiModel(document);
    const warnings = [...loadWarnings];
    const duplicates = new Set<string>();
    for (const operation of this.operations) {
      if (!operation.operationId) continue;
      if (this.byOperationId.has(operation.operationId)) duplicates.add(operation.operationId);
      else this.byOperationId.set(operation.operationId, operation);
    }
    const missing = this.operations.filter((operation) => !operation.operationId).length;
    if (missing > 0) warnings.push(`${missing} operation(s) have no operationId; find them with search_endpoints or get_path_details`);
    if (duplicates.size > 0)
      warnings.push(`duplicate operationIds (the first occurrence is indexed): ${[...duplicates].slice(0, 10).join(", ")}`);
    this.warnings = warnings;
  }

  /** What the document is: an OpenAPI (or Swagger) document, or a GraphQL schema read as one. */
  get kind(): "openapi" | "graphql" {
    return this.sourceVersion.startsWith("graphql") ? "graphql" : "openapi";
  }

  /** The operations in document order. */
  get operations(): readonly OperationModel[] {
    return this.model.operations;
  }

  /** Title, version, servers and counts. */
  summary(): ApiSummary {
    const { info, servers, paths, tags } = this.model;
    return {
      name: this.name,
      title: info.title,
      version: info.version,
      description: info.description,
      servers: servers.map((server) => server.url),
      paths_count: paths.length,
      tags_count: tags.length,
    };
  }

  /** Root `tags` (with descriptions), then any tag operations use that the root list lacks. */
  tags(): { name: string; description: string }[] {
    return this.model.tags.map(({ name, description }) => ({ name, description }));
  }

  /** The ranked full-text index, built on first use. */
  index(): OperationSearchIndex {
    this.searchIndex ??= new OperationSearchIndex(this.searchable());
    return this.searchIndex;
  }

  /** What the search index holds of each operation; ids are the operations' positions plus `base`. */
  searchable(base = 0): SearchableOperation[] {
    return this.operations.map((operation) => ({
      id: base + operation.index,
      path: operation.path,
      method: operation.method,
      operationId: operation.operationId ?? "",
      summary: operation.summary ?? "",
      description: operation.description ?? "",
      tags: operation.tags.join(" "),
      parameters: [
        ...operation.parameters.filter((parameter) => !parameter.synthesized).map((parameter) => parameter.name),
        ...(graphqlField(operation)?.arguments ?? []),
      ].join(" "),
      ...(operation.deprecated ? { deprecated: true } : {}),
    }));
  }
}
