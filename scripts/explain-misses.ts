/** Debug: each miss of a set with the labelled answer's text. */
import { discoveryFor } from "./discovery-quality.js";
import { labelledQueries, ROOT } from "./rank-quality.js";
const set = process.argv[2] ?? "blind-2.json";
for (const [api, query, answers] of await labelledQueries(new URL(`test/fixtures/queries/${set}`, ROOT))) {
  const server = await discoveryFor(api);
  const ranked = await server.service.rank(query);
  const at = ranked.findIndex((tool) => answers.includes(server.operationIds.get(tool.name) ?? ""));
  if (at >= 0 && at < 5) continue;
  const tool = at >= 0 ? ranked[at] : undefined;
  console.log(`[${at < 0 ? ">" : at + 1}] ${api}: ${query}\n   want ${answers.join("|")} ${tool ? `${tool._meta.method.toUpperCase()} ${tool._meta.path} — ${tool.title} :: ${tool.description.slice(0, 160).replace(/\n/g, " ")}` : ""}\n   got ${ranked.slice(0, 3).map((t) => `${server.operationIds.get(t.name)} (${t.title.slice(0, 50)})`).join("; ")}`);
}
