import { setOwn } from "oapi-mcp-gen-runtime";
import type { OperationModel } from "../openapi/model.js";
import type { JsonObject } from "../openapi/types.js";
import { DEFAULT_MAX_CHARS } from "./bounded.js";
import { type ApiCatalog, ToolFailure } from "./catalog.js";
import { compareApis } from "./compare.js";
import { findOperation, findPath, findSchema, findTag, page } from "./lookup.js";
import { endpointsMarkdown, operationMarkdown, schemaMarkdown } from "./markdown.js";
import { operationView, schemaView } from "./views.js";

/** What a tool handler returns: structured content, or Markdown when asked for. */
export type ToolAnswer = { structured: JsonObject; markdown?: string };

/** One search-server tool: its MCP definition and its handler. */
export interface SearchTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ToolInputSchema;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  handler(args: Record<string, unknown>, catalog: ApiCatalog): Promise<ToolAnswer> | ToolAnswer;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 200;
/** Every string argument has a length cap: the work a call causes (matching, suggestions) grows with it. */
const MAX_LENGTH = { name: 64, url: 4096, path: 2048, keyword: 512, method: 16, tag: 256, cursor: 16, identifier: 512 } as const;
const text = (maxLength: number, description: string) => ({ type: "string", maxLength, description });
const name = text(MAX_LENGTH.name, "Name the API was loaded under (see list_apis).");
const limit = {
  type: "integer",
  minimum: 1,
  maximum: MAX_LIMIT,
  default: DEFAULT_LIMIT,
  description: "Maximum number of items to return.",
};
const cursor = text(MAX_LENGTH.cursor, "next_cursor from a previous call, to get the next page.");
const inlineDepth = {
  type: "integer",
  minimum: 0,
  maximum: 3,
  default: 0,
  description: "Levels of schema $refs to inline (0 keeps $refs and lists them in referenced_schemas).",
};
const format = {
  type: "string",
  enum: ["json", "markdown"],
  default: "json",
  description: "json (structured) or markdown (a readable export).",
};
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The input schema of a search tool: an object of named arguments. */
export type ToolInputSchema = { type: "object"; properties: JsonObject; required?: string[]; additionalProperties: false };

function input(properties: JsonObject, required: string[] = []): ToolInputSchema {
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

function limitOf(args: Record<string, unknown>, fallback = DEFAULT_LIMIT): number {
  return typeof args.limit === "number" ? args.limit : fallback;
}

/** A string argument, or undefined when it is absent (the input schema already checked its type). */
function stringArg(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === "string" ? value : undefined;
}

function inlineDepthOf(args: Record<string, unknown>): { inlineDepth: number } {
  return { inlineDepth: typeof args.inline_depth === "number" ? args.inline_depth : 0 };
}

function overview(record: OperationModel): JsonObject {
  return {
    path: record.path,
    method: record.method,
    operationId: record.operationId ?? null,
    summary: record.summary ?? "",
    tags: [...record.tags],
  };
}

/** The ten tools of the contract, plus the design's extension `compare_apis`. */
export const SEARCH_TOOLS: SearchTool[] = [
  {
    name: "load_openapi",
    title: "Load an OpenAPI document",
    description:
      "Load an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) from an http(s) URL or a local path under a name. " +
      "Loading under an existing name replaces it. Returns the title, servers, counts and load warnings.",
    inputSchema: input({ name, url: text(MAX_LENGTH.url, "http(s) URL or local file path of the document.") }, ["name", "url"]),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async handler(args, catalog) {
      const { api, replaced } = await catalog.load(String(args.name), String(args.url));
      const { name: _, title, version, description, servers, paths_count, tags_count } = api.summary();
      return {
        structured: {
          status: "success",
          message: `API '${api.name}' ${replaced ? "reloaded (replaced the previous version)" : "loaded"}: ${api.operations.length} operations.`,
          replaced,
          info: { title, version, description },
          servers,
          paths_count,
          tags_count,
          operations_count: api.operations.length,
          source_version: api.sourceVersion,
          warnings: api.warnings,
        },
      };
    },
  },
  {
    name: "list_apis",
    title: "List loaded APIs",
    description: "List every loaded API with its title, version, servers and counts.",
    inputSchema: input({}),
    annotations: readOnly,
    handler(_, catalog) {
      const apis = catalog.list().map((api) => ({ ...api.summary() }));
      return { structured: { count: apis.length, apis } };
    },
  },
  {
    name: "get_path_details",
    title: "Get every operation of a path",
    description: "Every operation of one path, with path-level and operation-level parameters merged and the effective security.",
    inputSchema: input(
      { name, path: text(MAX_LENGTH.path, "A path of the document, e.g. /users/{id}."), inline_depth: inlineDepth, format },
      ["name", "path"],
    ),
    annotations: readOnly,
    handler(args, catalog) {
      const api = catalog.get(String(args.name));
      const path = findPath(api, String(args.path));
      const views = api.operations
        .filter((record) => record.path === path)
        .map((record) => ({ record, view: operationView(api, record, inlineDepthOf(args)) }));
      const methods = Object.fromEntries(views.map(({ record, view }) => [record.method, view]));
      const markdown = views.map(({ record, view }) => operationMarkdown(record, view)).join("\n");
      return { structured: { path, methods }, ...(args.format === "markdown" ? { markdown } : {}) };
    },
  },
  {
    name: "get_auth_info",
    title: "Get authentication schemes",
    description: "Security schemes (components.securitySchemes, or Swagger 2.0 securityDefinitions) and the global security requirements.",
    inputSchema: input({ name }, ["name"]),
    annotations: readOnly,
    handler(args, catalog) {
      const { model } = catalog.get(String(args.name));
      const schemes: JsonObject = {};
      for (const [schemeName, scheme] of model.securitySchemes) setOwn(schemes, schemeName, scheme.declared);
      const global = model.globalSecurity.map((requirement) => ({ ...requirement }));
      return { structured: { security_schemes: schemes, global_security: global } };
    },
  },
  {
    name: "search_endpoints",
    title: "Search endpoints",
    description:
      "Ranked full-text search over paths, operationIds (camelCase split), summaries, descriptions, tags and parameter names, " +
      "with prefix and typo tolerance. Filter by HTTP method and tag. Without a keyword, lists the operations matching the filters.",
    inputSchema: input(
      {
        name,
        keyword: text(MAX_LENGTH.keyword, "Words to search for, e.g. 'create issue comment'."),
        method: text(MAX_LENGTH.method, "HTTP method filter, e.g. GET."),
        tag: text(MAX_LENGTH.tag, "Only operations with this tag."),
        limit,
        cursor,
        format,
      },
      ["name"],
    ),
    annotations: readOnly,
    handler(args, catalog) {
      const api = catalog.get(String(args.name));
      const method = typeof args.method === "string" && args.method !== "" ? args.method.toLowerCase() : undefined;
      const tag = typeof args.tag === "string" && args.tag !== "" ? findTag(api, args.tag) : undefined;
      const keep = (record: OperationModel) => (!method || record.method === method) && (!tag || record.tags.includes(tag));
      const keyword = typeof args.keyword === "string" ? args.keyword.trim() : "";
      const ranked: { record: OperationModel; score?: number }[] =
        keyword === ""
          ? api.operations.filter(keep).map((record) => ({ record }))
          : api
              .index()
              .search(keyword)
              .flatMap((hit) => {
                const record = api.operations[hit.id];
                return record && keep(record) ? [{ record, score: hit.score }] : [];
              });
      const { items, total, next_cursor } = page(ranked, limitOf(args), stringArg(args, "cursor"));
      const results = items.map(({ record, score }) => ({
        ...overview(record),
        ...(score !== undefined ? { score: Math.round(score * 100) / 100 } : {}),
      }));
      const title = keyword ? `Search '${keyword}' in ${api.name}` : `Endpoints of ${api.name}`;
      return {
        structured: { count: results.length, total, next_cursor, results },
        ...(args.format === "markdown" ? { markdown: endpointsMarkdown(title, results, total) } : {}),
      };
    },
  },
  {
    name: "list_all_paths",
    title: "List all paths",
    description: "Every path of the API with its methods, in document order, a page at a time.",
    inputSchema: input({ name, limit: { ...limit, default: 100 }, cursor }, ["name"]),
    annotations: readOnly,
    handler(args, catalog) {
      const api = catalog.get(String(args.name));
      const methods = new Map<string, string[]>();
      for (const record of api.operations) methods.set(record.path, [...(methods.get(record.path) ?? []), record.method]);
      const all = api.model.paths.map((path) => ({ path, methods: methods.get(path) ?? [] }));
      const { items, total, next_cursor } = page(all, limitOf(args, 100), stringArg(args, "cursor"));
      return { structured: { count: items.length, total, next_cursor, paths: items } };
    },
  },
  {
    name: "get_schema_details",
    title: "Get a schema",
    description:
      "A component schema (components.schemas, or Swagger 2.0 definitions), with the schemas it references listed to fetch next.",
    inputSchema: input({ name, schema_name: text(MAX_LENGTH.identifier, "Schema name, e.g. User."), inline_depth: inlineDepth, format }, [
      "name",
      "schema_name",
    ]),
    annotations: readOnly,
    handler(args, catalog) {
      const api = catalog.get(String(args.name));
      const found = findSchema(api, String(args.schema_name));
      const view = schemaView(api, found.name, found.written, inlineDepthOf(args));
      return { structured: view, ...(args.format === "markdown" ? { markdown: schemaMarkdown(found.name, found.schema, view) } : {}) };
    },
  },
  {
    name: "get_operation_by_id",
    title: "Get an operation by operationId",
    description:
      "One operation by its operationId: path, method and the effective details (merged parameters, request body, responses, security).",
    inputSchema: input(
      { name, operation_id: text(MAX_LENGTH.identifier, "The operationId, e.g. getUserById."), inline_depth: inlineDepth, format },
      ["name", "operation_id"],
    ),
    annotations: readOnly,
    handler(args, catalog) {
      const api = catalog.get(String(args.name));
      const record = findOperation(api, String(args.operation_id));
      const details = operationView(api, record, inlineDepthOf(args));
      return {
        structured: { operation_id: record.operationId ?? null, path: record.path, method: record.method, details },
        ...(args.format === "markdown" ? { markdown: operationMarkdown(record, details) } : {}),
      };
    },
  },
  {
    name: "list_tags",
    title: "List tags",
    description: "The API's tags with descriptions: the root tags list, plus tags operations use that it lacks.",
    inputSchema: input({ name }, ["name"]),
    annotations: readOnly,
    handler(args, catalog) {
      const tags = catalog.get(String(args.name)).tags();
      return { structured: { count: tags.length, tags } };
    },
  },
  {
    name: "get_endpoints_by_tag",
    title: "List endpoints of a tag",
    description: "An overview (path, method, operationId, summary) of the operations with one tag, a page at a time.",
    inputSchema: input({ name, tag: text(MAX_LENGTH.tag, "Tag name (case-insensitive)."), limit: { ...limit, default: 50 }, cursor }, [
      "name",
      "tag",
    ]),
    annotations: readOnly,
    handler(args, catalog) {
      const api = catalog.get(String(args.name));
      const tag = findTag(api, String(args.tag));
      const all = api.operations.filter((record) => record.tags.includes(tag));
      const { items, total, next_cursor } = page(all, limitOf(args, 50), stringArg(args, "cursor"));
      const endpoints = items.map(({ path, method, operationId, summary }) => ({
        path,
        method,
        operationId: operationId ?? null,
        summary: summary ?? "",
      }));
      return { structured: { tag, count: endpoints.length, total, next_cursor, endpoints } };
    },
  },
  {
    name: "compare_apis",
    title: "Compare two loaded API versions",
    description:
      "Compare two loaded APIs (e.g. two versions): operations added, removed and changed (naming what changed), and schema changes.",
    inputSchema: input(
      {
        base: text(MAX_LENGTH.name, "Name of the older version."),
        target: text(MAX_LENGTH.name, "Name of the newer version."),
        limit,
      },
      ["base", "target"],
    ),
    annotations: readOnly,
    handler(args, catalog) {
      const base = catalog.get(String(args.base));
      const target = catalog.get(String(args.target));
      if (base === target) throw new ToolFailure("base and target are the same API");
      const comparison = compareApis(base, target);
      const max = limitOf(args);
      const cut = <T>(list: T[]) => ({ total: list.length, items: list.slice(0, max) });
      return {
        structured: {
          base: base.name,
          target: target.name,
          added: cut(comparison.added),
          removed: cut(comparison.removed),
          changed: cut(comparison.changed),
          unchanged_count: comparison.unchanged_count,
          schemas: comparison.schemas,
        },
      };
    },
  },
];

/** The answer-size budget of every tool. */
export const MAX_ANSWER_CHARS = DEFAULT_MAX_CHARS;
