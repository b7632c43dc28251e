/**
 * Scores a model-in-the-loop run of `agent-search`: from its call log (`{"request": N}` lines, then the calls made
 * for that request) and its choices (`N<TAB>operation<TAB>searches`), how often the chosen operation was in the first
 * search's top 10 and first, searches per request, and how often it is the labelled operation of the set.
 */
import { readFile } from "node:fs/promises";
import { discoveryFor } from "./discovery-quality.js";
import { labelledQueries, ROOT } from "./rank-quality.js";

const [log, choices, sets = "blind.json"] = process.argv.slice(2);
if (!log || !choices) throw new Error("usage: agent-search-score <calls.jsonl> <choices.tsv> [set[,set…]]");
// Several sets are numbered on, in the order given (`blind-2.json,blind-3.json`: 1–60, then 61–120).
const queries = (await Promise.all(sets.split(",").map((set) => labelledQueries(new URL(`test/fixtures/queries/${set}`, ROOT))))).flat();
const firstSearch = new Map<number, string[]>();
const searches = new Map<number, number>();
let request = 0;
for (const line of (await readFile(log, "utf8")).split("\n")) {
  if (line.trim() === "") continue;
  const entry = JSON.parse(line) as { request?: number; tool?: string; names?: string[] };
  if (entry.request !== undefined) {
    request = entry.request;
    continue;
  }
  if (entry.tool !== "search_operations") continue;
  searches.set(request, (searches.get(request) ?? 0) + 1);
  if (!firstSearch.has(request)) firstSearch.set(request, (entry.names ?? []).slice(0, 10));
}
const chosen = new Map(
  (await readFile(choices, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [number = "", name = ""] = line.split("\t");
      return [Number(number), name.trim()] as const;
    }),
);
// The labels are operationIds; the model names tools: each API's names map to its operationIds.
const names = new Map<string, Map<string, string>>();
for (const api of new Set(queries.map(([name]) => name))) {
  const { operationIds } = await discoveryFor(api);
  names.set(api, new Map(operationIds));
}
let inTop10 = 0;
let first = 0;
let right = 0;
let totalSearches = 0;
const wrong: string[] = [];
queries.forEach(([api, query, answers], index) => {
  const number = index + 1;
  const name = chosen.get(number) ?? "";
  const top = firstSearch.get(number) ?? [];
  if (top.includes(name)) inTop10++;
  if (top[0] === name) first++;
  totalSearches += searches.get(number) ?? 0;
  const operationId = names.get(api)?.get(name) ?? name;
  if (answers.includes(operationId)) right++;
  else wrong.push(`${number} ${api}: "${query}" → chose ${name || "nothing"}, labelled ${answers.join(" or ")}`);
});
const count = queries.length;
const percent = (value: number) => `${Math.round((value / count) * 100)} %`;
console.log(`requests ${count}, chosen answered ${chosen.size}`);
console.log(`chosen operation in the first search's top 10: ${inTop10} (${percent(inTop10)}), first: ${first} (${percent(first)})`);
console.log(`searches per request: ${(totalSearches / count).toFixed(2)}`);
console.log(`the labelled operation chosen: ${right} (${percent(right)})`);
for (const miss of wrong) console.log(`  ${miss}`);
