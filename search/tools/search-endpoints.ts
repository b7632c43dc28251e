import type { JsonObject } from "../../openapi/document/index.js";
import type { OperationModel } from "../../openapi/model/index.js";
import { type Catalogue, type OperationRow, rowOf } from "../catalogue/index.js";
import { findTag, type LoadedApi } from "../documents/index.js";
import { endpointsMarkdown } from "../views/index.js";
import {
  answer,
  cursorAfter,
  cursorArg,
  formatArg,
  input,
  limitArg,
  MAX_LENGTH,
  methodArg,
  methodOf,
  pageOf,
  pageWindow,
  READ_ONLY,
  type SearchTool,
  stringArg,
  text,
} from "./tool-kit.js";

/** An overview row of one operation, its score rounded. */
function overview(row: OperationRow, withApi: boolean): JsonObject {
  const { api, score, ...rest } = row;
  return { ...(withApi ? { api } : {}), ...rest, ...(score !== undefined ? { score: Math.round(score * 100) / 100 } : {}) };
}

/** The operations of one API that pass the filters: ranked by the keyword with the API's own index, else in document order. */
function searchOne(api: LoadedApi, keyword: string, keep: (record: OperationModel) => boolean): OperationRow[] {
  if (keyword === "") return api.operations.filter(keep).map((record) => rowOf(api, record));
  return api
    .index()
    .search(keyword)
    .flatMap((hit) => {
      const record = api.operations[hit.id];
      return record && keep(record) ? [rowOf(api, record, hit.score)] : [];
    });
}

/** One page of one API's operations, or of every loaded API's (the catalogue's), that match. */
async function found(catalogue: Catalogue, args: Record<string, unknown>, name: string | undefined, keyword: string) {
  const method = methodOf(args);
  const tagArg = stringArg(args, "tag");
  if (name === undefined) {
    const window = pageWindow(args);
    const page = await catalogue.find({ keyword, ...(method ? { method } : {}), ...(tagArg ? { tag: tagArg } : {}), ...window });
    return { items: page.rows, total: page.total, next_cursor: cursorAfter(window, page.total), apisSearched: page.apisSearched };
  }
  const api = await catalogue.get(name);
  const tag = tagArg === undefined ? undefined : findTag(api, tagArg);
  const keep = (record: OperationModel) => (!method || record.method === method) && (!tag || record.tags.includes(tag));
  return { ...pageOf(args, searchOne(api, keyword, keep)), apisSearched: 1 };
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
  async handler(args, { catalogue }) {
    const name = stringArg(args, "name");
    const keyword = typeof args.keyword === "string" ? args.keyword.trim() : "";
    const { items, total, next_cursor, apisSearched } = await found(catalogue, args, name, keyword);
    const results = items.map((row) => overview(row, name === undefined));
    const scope = name ?? "every loaded API";
    const title = keyword ? `Search '${keyword}' in ${scope}` : `Endpoints of ${scope}`;
    return answer(
      args,
      { count: results.length, total, next_cursor, ...(name === undefined ? { apis_searched: apisSearched } : {}), results },
      () => endpointsMarkdown(title, results, { total, next_cursor }),
    );
  },
};
