import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { labelledQueries, QUALITY_DOCUMENTS, type RankQuality, ROOT, rankQuality } from "./rank-quality.js";

/** The labelled queries of the search server (test/fixtures/queries/search.json). */
export function searchQueries() {
  return labelledQueries(new URL("test/fixtures/queries/search.json", ROOT));
}

/** Loads, through `load_openapi`, every document the labelled queries ask of, under the names they use. */
export async function loadLabelledDocuments(client: Client): Promise<string[]> {
  const names = [...new Set((await searchQueries()).map(([api]) => api))].sort();
  for (const name of names) {
    const url = QUALITY_DOCUMENTS[name];
    if (url === undefined) throw new Error(`no document named ${name}`);
    const result = await client.callTool({ name: "load_openapi", arguments: { name, url } }, undefined, { timeout: 300_000 });
    if (result.isError) throw new Error(`${name} did not load: ${JSON.stringify(result.content)}`);
  }
  return names;
}

/**
 * How well a search server's catalogue-wide search (no API named) ranks the labelled queries: a hit is the expected
 * operation of the expected API among the first five results of every loaded API.
 */
export async function catalogueQuality(client: Client): Promise<RankQuality> {
  return rankQuality(await searchQueries(), async (api, query) => {
    const result = await client.callTool({ name: "search_endpoints", arguments: { keyword: query, limit: 5 } });
    const rows = (result.structuredContent as { results?: { api: string; operationId: string | null }[] }).results ?? [];
    // A hit of another API holds its rank but never matches.
    return rows.map((row) => (row.api === api ? (row.operationId ?? undefined) : `${row.api}:${row.operationId}`));
  });
}
