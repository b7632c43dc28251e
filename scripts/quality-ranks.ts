/** Debug: each labelled request's rank of its answer in every set, one line each (diff two runs). */
import { discoveryFor } from "./discovery-quality.js";
import { labelledQueries, ROOT } from "./rank-quality.js";

const sets = process.argv.slice(2);
for (const set of sets.length
  ? sets
  : ["discovery.json", "unseen.json", "holdout.json", "blind.json", "stripe.json", "blind-2.json", "blind-3.json"]) {
  for (const [api, query, answers] of await labelledQueries(new URL(`test/fixtures/queries/${set}`, ROOT))) {
    const server = await discoveryFor(api);
    const ranked = await server.service.rank(query);
    const at = ranked.slice(0, 10).findIndex((tool) => answers.includes(server.operationIds.get(tool.name) ?? ""));
    const top = server.operationIds.get(ranked[0]?.name ?? "") ?? "";
    console.log(`${set}\t${at < 0 ? ">10" : at + 1}\t${api}: ${query}\t[${top}]`);
  }
}
