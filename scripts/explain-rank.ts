/** Debug: a query's top results with their searchable text, and where the labelled answer is. */
import { discoveryFor } from "./discovery-quality.js";
const [api, query, answer] = process.argv.slice(2);
const server = await discoveryFor(api ?? "");
const ranked = await server.service.rank(query ?? "");
const byName = new Map<string, number>();
ranked.forEach((tool, at) => byName.set(server.operationIds.get(tool.name) ?? "", at));
const show = (tool: (typeof ranked)[number], at: number) =>
  console.log(`${at + 1}. ${server.operationIds.get(tool.name)} ${tool._meta.method.toUpperCase()} ${tool._meta.path} — ${tool.title}\n     ${tool.description.slice(0, 200).replace(/\n/g, " ")}`);
ranked.slice(0, 6).forEach(show);
const at = byName.get(answer ?? "");
if (at !== undefined) show(ranked[at]!, at);
else console.log("answer not ranked", answer);
