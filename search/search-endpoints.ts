import { excerpt } from "oapi-mcp-gen-runtime";
import type { OperationModel } from "../openapi/model.js";
import type { JsonObject } from "../openapi/types.js";
import { type ApiCatalog, ToolFailure } from "./catalog.js";
import type { LoadedApi } from "./loaded-api.js";
import { findTag } from "./lookup.js";
import { endpointsMarkdown } from "./markdown.js";
import {
  answer,
  cursorArg,
  formatArg,
  input,
  limitArg,
  MAX_LENGTH,
  methodArg,
  methodOf,
  pageOf,
  READ_ONLY,
  type SearchTool,
  stringArg,
  text,
} from "./tool-kit.js";

/** One ranked (or listed) operation of one API. */
type Hit = { api: LoadedApi; record: OperationModel; score?: number };

/** An overview row of one operation. */
function overview({ api, record, score }: Hit, withApi: boolean): JsonObject {
  return {
    ...(withApi ? { api: api.name } : {}),
    path: record.path,
    method: record.method,
    operationId: record.operationId ?? null,
    summary: record.summary ?? "",
    tags: [...record.tags],
    ...(score !== undefined ? { score: Math.round(score * 100) / 100 } : {}),
  };
}

/**
 * The operations of the APIs searched that pass the filters: ranked by the keyword (one API's own index, or the
 * catalogue's across every API), else in catalog and document order.
 */
async function hits(
  catalog: ApiCatalog,
  apis: readonly LoadedApi[],
  named: boolean,
  keyword: string,
  keep: (api: LoadedApi, record: OperationModel) => boolean,
): Promise<Hit[]> {
  if (keyword === "") return apis.flatMap((api) => api.operations.filter((record) => keep(api, record)).map((record) => ({ api, record })));
  if (!named) {
    const searched = new Set(apis);
    return (await catalog.searchAll(keyword)).filter((hit) => searched.has(hit.api) && keep(hit.api, hit.record));
  }
  return apis.flatMap((api) =>
    api
      .index()
      .search(keyword)
      .flatMap((hit) => {
        const record = api.operations[hit.id];
        return record && keep(api, record) ? [{ api, record, score: hit.score }] : [];
      }),
  );
}

/** The APIs a search covers: the one named, else every loaded API (the catalogue). */
function searched(catalog: ApiCatalog, name: string | undefined): LoadedApi[] {
  return name === undefined ? catalog.list() : [catalog.get(name)];
}

/**
 * The APIs to search and the spelling of the tag filter in each: one named API must have the tag (else a failure naming
 * its tags); across the catalogue, the APIs that have it (a failure when none has).
 */
function withTag(apis: LoadedApi[], tag: string | undefined, named: boolean) {
  const tags = new Map<LoadedApi, string | undefined>();
  if (tag === undefined || named) {
    for (const api of apis) tags.set(api, tag === undefined ? undefined : findTag(api, tag));
    return { apis, tags };
  }
  const lower = tag.toLowerCase();
  for (const api of apis) {
    const match = api.tags().find((entry) => entry.name.toLowerCase() === lower);
    if (match) tags.set(api, match.name);
  }
  if (tags.size === 0) throw new ToolFailure(`no loaded API has the tag '${excerpt(tag)}'; list an API's tags with list_tags`);
  return { apis: [...tags.keys()], tags };
}

/** `search_endpoints`: ranked search over one API, or over every loaded API when no name is given. */
export const searchEndpoints: SearchTool = {
  name: "search_endpoints",
  title: "Search endpoints",
  description:
    "Ranked full-text search over paths, operationIds (camelCase split), summaries, descriptions, tags and parameter names, " +
    "with synonyms (open/new → create, read/show → get, me → authenticated user), plural folding and typo tolerance. " +
    "Without `name`, searches every loaded API and says which API each hit is in. Filter by HTTP method and tag. " +
    "Without a keyword, lists the operations matching the filters.",
  inputSchema: input({
    name: text(MAX_LENGTH.name, "Name the API was loaded under (see list_apis); omit to search every loaded API."),
    keyword: text(MAX_LENGTH.keyword, "Words to search for, e.g. 'create issue comment'."),
    method: { ...methodArg, description: "HTTP method filter, e.g. GET." },
    tag: text(MAX_LENGTH.tag, "Only operations with this tag (case-insensitive)."),
    limit: limitArg(),
    cursor: cursorArg,
    format: formatArg,
  }),
  annotations: READ_ONLY,
  async handler(args, { catalog }) {
    const name = stringArg(args, "name");
    const method = methodOf(args);
    const tagArg = stringArg(args, "tag");
    const { apis, tags } = withTag(searched(catalog, name), tagArg, name !== undefined);
    const keep = (api: LoadedApi, record: OperationModel) => {
      const tag = tags.get(api);
      return (!method || record.method === method) && (!tag || record.tags.includes(tag));
    };
    const keyword = typeof args.keyword === "string" ? args.keyword.trim() : "";
    const { items, total, next_cursor } = pageOf(args, await hits(catalog, apis, name !== undefined, keyword, keep));
    const results = items.map((hit) => overview(hit, name === undefined));
    const scope = name ?? "every loaded API";
    const title = keyword ? `Search '${keyword}' in ${scope}` : `Endpoints of ${scope}`;
    return answer(
      args,
      { count: results.length, total, next_cursor, ...(name === undefined ? { apis_searched: apis.length } : {}), results },
      () => endpointsMarkdown(title, results, { total, next_cursor }),
    );
  },
};
