/** Debug: a request's term groups and its top results over one API of the labelled sets (`explain-rank <api> <request>`). */
import { discoveryFor } from "./discovery-quality.js";

/** The index's insides this debug view reads. */
interface IndexInsides {
  search(query: string): { id: number; score: number }[];
  lexicon: { related: Record<string, string[]> };
  terms: Set<string>;
  objectCounts: Map<string, number>;
  corrected(term: string, word: string): string;
}

const [api = "", ...said] = process.argv.slice(2);
const query = said.join(" ");
const server = await discoveryFor(api);
const service = server.service as unknown as { searchIndex(): Promise<IndexInsides>; order: { name: string }[] };
const index = await service.searchIndex();
const words$ = "../../runtime/dist/discovery/request-words.js";
const { queryTermGroups } = (await import(words$)) as typeof import("../runtime/discovery/request-words.js");
const groups = queryTermGroups(
  query,
  (term, word) => index.corrected(term, word),
  (term) => index.lexicon.related[term] ?? [],
  (term) => index.terms.has(term),
  (term) => index.objectCounts.has(term),
);
console.log(JSON.stringify(groups));
for (const [at, hit] of index.search(query).slice(0, Number(process.env.TOP ?? 12)).entries()) {
  console.log(`${at + 1}\t${hit.score.toFixed(2)}\t${server.operationIds.get(service.order[hit.id]?.name ?? "")}`);
}
