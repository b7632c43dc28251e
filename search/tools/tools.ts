import { audit, excerpt, namedCaller, pushTo, requestScope, setOwn } from "oapi-mcp-gen-runtime";
import { isJsonObject, type JsonObject } from "../../openapi/document/index.js";
import type { SecuritySchemeModel } from "../../openapi/model/index.js";
import { checkMayLoad, loaderOf } from "../catalogue/index.js";
import { findOperation, findPath, findSchema, findTag, ToolFailure } from "../documents/index.js";
import {
  cell,
  clipText,
  compareApis,
  DEFAULT_MAX_CHARS,
  endpointsMarkdown,
  fieldsMarkdown,
  operationBrief,
  operationMarkdown,
  operationView,
  quotedMarkdown,
  schemaMarkdown,
  schemaView,
  tableMarkdown,
} from "../views/index.js";
import { REQUEST_TOOLS } from "./request-tools.js";
import { searchEndpoints } from "./search-endpoints.js";
import {
  answer,
  cursorArg,
  formatArg,
  inlineDepthArg,
  inlineDepthOf,
  input,
  limitArg,
  MAX_LENGTH,
  nameArg,
  pageOf,
  pagesOf,
  READ_ONLY,
  type SearchTool,
  text,
} from "./tool-kit.js";

export type { SearchTool, ToolAnswer, ToolContext } from "./tool-kit.js";

/** How much of an API's description list_apis shows. */
const LISTED_DESCRIPTION = 300;

/** The ten tools of the contract, the design's `compare_apis`, and request building. */
export const SEARCH_TOOLS: SearchTool[] = [
  {
    name: "load_openapi",
    title: "Load an OpenAPI document or GraphQL schema",
    description:
      "Load an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML), or a GraphQL schema (SDL, or an introspection result " +
      "as JSON), from an http(s) URL or a local path under a name. Loading under an existing name replaces it. " +
      "Returns the title, servers, counts and load warnings.",
    inputSchema: input({ name: nameArg, url: text(MAX_LENGTH.url, "http(s) URL or local file path of the document."), format: formatArg }, [
      "name",
      "url",
    ]),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async handler(args, { catalogue, signIn, log }) {
      checkMayLoad(signIn);
      const by = loaderOf(signIn);
      const { api, replaced } = await catalogue.load(String(args.name), String(args.url), by ? { by } : {});
      if (log)
        audit(log, {
          event: "catalogue",
          action: replaced ? "replace" : "load",
          api: api.name,
          ...callerOf(),
          source: excerpt(String(args.url), 200),
        });
      const { name: _, title, version, description, servers, paths_count, tags_count } = api.summary();
      const message = `API '${api.name}' ${replaced ? "reloaded (replaced the previous version)" : "loaded"}: ${api.operations.length} operations.`;
      const structured: JsonObject = {
        status: "success",
        message,
        replaced,
        info: { title, version, description },
        servers,
        paths_count,
        tags_count,
        operations_count: api.operations.length,
        source_version: api.sourceVersion,
        warnings: api.warnings,
      };
      return answer(args, structured, () =>
        fieldsMarkdown(
          `Loaded ${api.name}`,
          [
            ["title", title],
            ["version", version],
            ["document version", api.sourceVersion],
            ["operations", api.operations.length],
            ["paths", paths_count],
            ["tags", tags_count],
            ["servers", servers.join(", ")],
            ["replaced", replaced ? "yes" : "no"],
          ],
          quotedMarkdown("Description", description),
          api.warnings.length > 0
            ? tableMarkdown(
                "Warnings",
                ["warning"],
                api.warnings.map((warning) => [warning]),
              )
            : "",
        ),
      );
    },
  },
  {
    name: "list_apis",
    title: "List loaded APIs",
    description: "The loaded APIs with title, version, servers and counts, a page at a time.",
    inputSchema: input({ limit: limitArg(), cursor: cursorArg, format: formatArg }),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const { items: listed, total, next_cursor } = pageOf(args, await catalogue.listings());
      // A page of APIs stays a page: each description is cut to its opening (a document's can run to pages).
      const items = listed.map((api) => ({ ...api, description: clipText(api.description, LISTED_DESCRIPTION) }));
      return answer(args, { count: items.length, total, next_cursor, apis: items }, () =>
        tableMarkdown(
          "Loaded APIs",
          ["name", "kind", "title", "version", "operations", "servers"],
          items.map((api) => [api.name, api.kind, api.title, api.version, api.operations_count, api.servers.join(", ")]),
          { total, next_cursor },
        ),
      );
    },
  },
  {
    name: "get_path_details",
    title: "Get every operation of a path",
    description: "Every operation of one path, with path-level and operation-level parameters merged and the effective security.",
    inputSchema: input(
      {
        name: nameArg,
        path: text(MAX_LENGTH.path, "A path of the document, e.g. /users/{id}."),
        inline_depth: inlineDepthArg,
        format: formatArg,
      },
      ["name", "path"],
    ),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const api = await catalogue.get(String(args.name));
      const path = findPath(api, String(args.path));
      const views = api.operations
        .filter((record) => record.path === path)
        .map((record) => ({ record, view: operationView(api, record, inlineDepthOf(args)) }));
      const methods = Object.fromEntries(views.map(({ record, view }) => [record.method, view]));
      return answer(args, { path, methods }, () => views.map(({ record, view }) => operationMarkdown(record, view)).join("\n"));
    },
  },
  {
    name: "get_auth_info",
    title: "Get authentication schemes",
    description: "Security schemes (components.securitySchemes, or Swagger 2.0 securityDefinitions) and the global security requirements.",
    inputSchema: input({ name: nameArg, format: formatArg }, ["name"]),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const { model, name } = await catalogue.get(String(args.name));
      const schemes: JsonObject = {};
      for (const [schemeName, scheme] of model.securitySchemes) setOwn(schemes, schemeName, scheme.declared);
      const global = model.globalSecurity.map((requirement) => ({ ...requirement }));
      return answer(args, { security_schemes: schemes, global_security: global }, () =>
        [
          tableMarkdown(
            `Security schemes of ${name}`,
            ["scheme", "type", "where", "description"],
            [...model.securitySchemes].map(([schemeName, scheme]) => [
              schemeName,
              scheme.type,
              whereCredential(scheme),
              scheme.description,
            ]),
          ),
          tableMarkdown(
            "Global security",
            ["requirement"],
            global.map((requirement) => [Object.keys(requirement).length === 0 ? "(none: public)" : JSON.stringify(requirement)]),
          ),
        ].join("\n"),
      );
    },
  },
  searchEndpoints,
  {
    name: "list_all_paths",
    title: "List all paths",
    description: "Every path of the API with its methods, in document order, a page at a time.",
    inputSchema: input({ name: nameArg, limit: limitArg(100), cursor: cursorArg, format: formatArg }, ["name"]),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const api = await catalogue.get(String(args.name));
      const methods = new Map<string, string[]>();
      for (const record of api.operations) pushTo(methods, record.path, record.method);
      const all = api.model.paths.map((path) => ({ path, methods: methods.get(path) ?? [] }));
      const { items, total, next_cursor } = pageOf(args, all);
      return answer(args, { count: items.length, total, next_cursor, paths: items }, () =>
        tableMarkdown(
          `Paths of ${api.name}`,
          ["path", "methods"],
          items.map(({ path, methods: verbs }) => [path, verbs.map((verb) => verb.toUpperCase()).join(", ")]),
          { total, next_cursor },
        ),
      );
    },
  },
  {
    name: "get_schema_details",
    title: "Get a schema",
    description:
      "A component schema (components.schemas, or Swagger 2.0 definitions), with the schemas it references listed to fetch next.",
    inputSchema: input(
      {
        name: nameArg,
        schema_name: text(MAX_LENGTH.identifier, "Schema name, e.g. User."),
        inline_depth: inlineDepthArg,
        format: formatArg,
      },
      ["name", "schema_name"],
    ),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const api = await catalogue.get(String(args.name));
      const found = findSchema(api, String(args.schema_name));
      const view = schemaView(api, found.name, found.written, inlineDepthOf(args));
      return answer(args, view, () => schemaMarkdown(found.name, found.schema, view));
    },
  },
  {
    name: "get_operation_by_id",
    title: "Get an operation by operationId",
    description:
      "One operation by its operationId: path, method and the effective details (merged parameters, request body, responses, security).",
    inputSchema: input(
      {
        name: nameArg,
        operation_id: text(MAX_LENGTH.identifier, "The operationId, e.g. getUserById."),
        inline_depth: inlineDepthArg,
        format: formatArg,
      },
      ["name", "operation_id"],
    ),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const api = await catalogue.get(String(args.name));
      const record = findOperation(api, String(args.operation_id));
      const details = operationView(api, record, inlineDepthOf(args));
      return answer(args, { operation_id: record.operationId ?? null, path: record.path, method: record.method, details }, () =>
        operationMarkdown(record, details),
      );
    },
  },
  {
    name: "list_tags",
    title: "List tags",
    description:
      "The API's tags with descriptions and operation counts (the root tags list, plus tags operations use that it lacks), a page at a time.",
    inputSchema: input({ name: nameArg, limit: limitArg(50), cursor: cursorArg, format: formatArg }, ["name"]),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const api = await catalogue.get(String(args.name));
      const counts = new Map<string, number>();
      for (const record of api.operations) for (const tag of record.tags) counts.set(tag, (counts.get(tag) ?? 0) + 1);
      const all = api.tags().map((tag) => ({ ...tag, operations_count: counts.get(tag.name) ?? 0 }));
      const { items, total, next_cursor } = pageOf(args, all);
      return answer(args, { count: items.length, total, next_cursor, tags: items }, () =>
        tableMarkdown(
          `Tags of ${api.name}`,
          ["tag", "operations", "description"],
          items.map((tag) => [tag.name, tag.operations_count, tag.description]),
          { total, next_cursor },
        ),
      );
    },
  },
  {
    name: "get_endpoints_by_tag",
    title: "List endpoints of a tag",
    description: "An overview (path, method, operationId, summary) of the operations with one tag, a page at a time.",
    inputSchema: input(
      {
        name: nameArg,
        tag: text(MAX_LENGTH.tag, "Tag name (case-insensitive)."),
        limit: limitArg(50),
        cursor: cursorArg,
        format: formatArg,
      },
      ["name", "tag"],
    ),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const api = await catalogue.get(String(args.name));
      const tag = findTag(api, String(args.tag));
      const all = api.operations.filter((record) => record.tags.includes(tag));
      const { items, total, next_cursor } = pageOf(args, all);
      const endpoints = items.map((record) => ({
        path: record.path,
        method: record.method,
        operationId: record.operationId ?? null,
        summary: operationBrief(record),
      }));
      return answer(args, { tag, count: endpoints.length, total, next_cursor, endpoints }, () =>
        endpointsMarkdown(`Endpoints tagged ${tag} in ${api.name}`, endpoints, { total, next_cursor }),
      );
    },
  },
  {
    name: "compare_apis",
    title: "Compare two loaded API versions",
    description:
      "Compare two loaded APIs (e.g. two versions): operations added, removed and changed (naming what changed), and schema changes. " +
      "The operation lists and the schema lists are paged together: one cursor moves each of them on by the limit.",
    inputSchema: input(
      {
        base: text(MAX_LENGTH.name, "Name of the older version."),
        target: text(MAX_LENGTH.name, "Name of the newer version."),
        limit: limitArg(),
        cursor: cursorArg,
        format: formatArg,
      },
      ["base", "target"],
    ),
    annotations: READ_ONLY,
    async handler(args, { catalogue }) {
      const base = await catalogue.get(String(args.base));
      const target = await catalogue.get(String(args.target));
      if (base === target) throw new ToolFailure("base and target are the same API");
      const comparison = compareApis(base, target);
      const { pages, next_cursor } = pagesOf(args, {
        added: comparison.added,
        removed: comparison.removed,
        changed: comparison.changed,
        schemasAdded: comparison.schemas.added,
        schemasRemoved: comparison.schemas.removed,
        schemasChanged: comparison.schemas.changed,
      });
      const { added, removed, changed } = pages;
      const schemas = { added: pages.schemasAdded, removed: pages.schemasRemoved, changed: pages.schemasChanged };
      const structured: JsonObject = {
        base: base.name,
        target: target.name,
        added,
        removed,
        changed,
        next_cursor,
        unchanged_count: comparison.unchanged_count,
        schemas,
      };
      const row = (item: { method: string; path: string; operationId: string | null }) => [item.method, item.path, item.operationId];
      return answer(args, structured, () =>
        [
          `## Changes from ${cell(base.name)} to ${cell(target.name)}\n\n${comparison.unchanged_count} operations unchanged.${
            next_cursor === null ? "" : ` Next page: cursor \`${next_cursor}\`.`
          }\n`,
          tableMarkdown(`Added (${added.total})`, ["method", "path", "operationId"], added.items.map(row)),
          tableMarkdown(`Removed (${removed.total})`, ["method", "path", "operationId"], removed.items.map(row)),
          tableMarkdown(
            `Changed (${changed.total})`,
            ["method", "path", "operationId", "changes"],
            changed.items.map((item) => [...row(item), item.changes.join(", ")]),
          ),
          tableMarkdown(
            "Schemas",
            ["change", "count", "schemas"],
            (["added", "removed", "changed"] as const).map((kind) => [kind, schemas[kind].total, schemas[kind].items.join(", ")]),
          ),
        ].join("\n"),
      );
    },
  },
  {
    name: "unload_api",
    title: "Unload an API",
    description: "Remove a loaded API and everything kept of it (its stored copy and its search index) from this server's catalogue.",
    inputSchema: input({ name: nameArg, format: formatArg }, ["name"]),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, { catalogue, signIn, log }) {
      const name = String(args.name);
      checkMayLoad(signIn);
      await catalogue.unload(name, loaderOf(signIn));
      if (log) audit(log, { event: "catalogue", action: "unload", api: name, ...callerOf() });
      const message = `API '${name}' unloaded.`;
      return answer(args, { status: "success", message, name }, () => fieldsMarkdown(`Unloaded ${name}`, [["name", name]]));
    },
  },
  ...REQUEST_TOOLS,
];

/** The answer-size budget of every tool. */
export const MAX_ANSWER_CHARS = DEFAULT_MAX_CHARS;

/** Where a security scheme's credential goes, or how it is obtained, for the Markdown table. */
function whereCredential(scheme: SecuritySchemeModel): string {
  const { declared } = scheme;
  if (scheme.type === "apiKey") return `${scheme.in ?? ""}: ${scheme.parameterName ?? ""}`;
  if (scheme.type === "http") return `Authorization: ${scheme.scheme ?? ""}`;
  if (scheme.type === "openIdConnect") return `OpenID Connect: ${String(declared.openIdConnectUrl ?? "")}`;
  if (scheme.type === "oauth2" && isJsonObject(declared.flows)) {
    const flows = Object.entries(declared.flows).map(([flow, details]) => {
      const urls = isJsonObject(details) ? [details.authorizationUrl, details.tokenUrl].filter((url) => typeof url === "string") : [];
      return `${flow}${urls.length > 0 ? ` (${urls.join(", ")})` : ""}`;
    });
    return `OAuth 2.0: ${flows.join("; ")}`;
  }
  return scheme.type;
}

/** Who changed the catalogue, for the audit trail: the signed-in user and client, else the caller's network. */
function callerOf(): { user?: string; client?: string } {
  const { signedIn, caller } = requestScope();
  return signedIn ? namedCaller(signedIn) : { user: caller };
}
