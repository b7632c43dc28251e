import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { readDocumentSource } from "../openapi/load.js";
import { normalizeDocument } from "../openapi/normalize.js";
import { LoadedApi } from "../search/loaded-api.js";

/** The repository root, from the source (scripts/) or the build (dist/scripts/). */
const ROOT = new URL(import.meta.url.includes("/dist/scripts/") ? "../../" : "../", import.meta.url);
const DOCUMENTS: Record<string, string> = {
  github: createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json"),
  memos: fileURLToPath(new URL("examples/memos/openapi.yaml", ROOT)),
  docker: fileURLToPath(new URL("test/fixtures/docker-engine/swagger.yaml", ROOT)),
  museum: fileURLToPath(new URL("test/fixtures/redocly-museum/openapi.yaml", ROOT)),
  galaxy: fileURLToPath(new URL("test/fixtures/scalar-galaxy/openapi.yaml", ROOT)),
};

/** How well `search_endpoints` finds the labelled operations: hits at 1 and 5, mean reciprocal rank, the misses. */
export interface SearchQuality {
  queries: number;
  documents: number;
  hitAt1: number;
  hitAt5: number;
  mrr: number;
  misses: string[];
}

async function loadApi(name: string): Promise<LoadedApi> {
  const { document: read } = await readDocumentSource(DOCUMENTS[name] as string);
  const { document, sourceVersion } = await normalizeDocument(read, name);
  return new LoadedApi(name, document, sourceVersion, name, "", []);
}

/** Runs the labelled query set (test/fixtures/queries/search.json) against the search server's index of each document. */
export async function searchQuality(): Promise<SearchQuality> {
  const set = JSON.parse(await readFile(new URL("test/fixtures/queries/search.json", ROOT), "utf8")) as {
    queries: [string, string, string][];
  };
  const apis = new Map<string, LoadedApi>();
  let hitAt1 = 0;
  let hitAt5 = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const [name, query, expected] of set.queries) {
    let api = apis.get(name);
    if (!api) {
      api = await loadApi(name);
      apis.set(name, api);
    }
    const loaded = api;
    if (!loaded.byOperationId.has(expected)) throw new Error(`${name} has no operation ${expected}`);
    const ranked = loaded
      .index()
      .search(query)
      .slice(0, 5)
      .map((hit) => loaded.operations[hit.id]?.operationId);
    const rank = ranked.indexOf(expected) + 1;
    if (rank === 1) hitAt1++;
    if (rank > 0) {
      hitAt5++;
      reciprocal += 1 / rank;
    }
    if (rank !== 1) misses.push(`${name}: "${query}" → ${expected} at ${rank || ">5"} (got ${ranked.join(", ")})`);
  }
  const queries = set.queries.length;
  return { queries, documents: apis.size, hitAt1: hitAt1 / queries, hitAt5: hitAt5 / queries, mrr: reciprocal / queries, misses };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quality = await searchQuality();
  console.log(JSON.stringify({ ...quality, misses: undefined }, null, 1));
  for (const miss of quality.misses) console.log(miss);
}
