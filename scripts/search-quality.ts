import { fileURLToPath } from "node:url";
import { LoadedApi } from "../search/documents/index.js";
import { labelledQueries, qualityDocument, type RankQuality, ROOT, rankQuality } from "./rank-quality.js";

/** How well `search_endpoints` finds the labelled operations, and over how many documents. */
export interface SearchQuality extends RankQuality {
  documents: number;
}

async function loadApi(name: string): Promise<LoadedApi> {
  const { document, sourceVersion } = await qualityDocument(name);
  return new LoadedApi(name, document, sourceVersion, name, "", []);
}

/** Runs the labelled query set (test/fixtures/queries/search.json) against the search server's index of each document. */
export async function searchQuality(): Promise<SearchQuality> {
  const apis = new Map<string, LoadedApi>();
  const quality = await rankQuality(
    await labelledQueries(new URL("test/fixtures/queries/search.json", ROOT)),
    async (name, query, answers) => {
      const api = apis.get(name) ?? (await loadApi(name));
      apis.set(name, api);
      const missing = answers.find((answer) => !api.byOperationId.has(answer));
      if (missing !== undefined) throw new Error(`${name} has no operation ${missing}`);
      return api
        .index()
        .search(query)
        .slice(0, 5)
        .map((hit) => api.operations[hit.id]?.operationId);
    },
  );
  return { ...quality, documents: apis.size };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quality = await searchQuality();
  console.log(JSON.stringify({ ...quality, misses: undefined }, null, 1));
  for (const miss of quality.misses) console.log(miss);
}
