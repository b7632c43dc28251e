import { pathToFileURL } from "node:url";
import { firstSentence } from "oapi-mcp-gen-runtime";
import { resolveConfig } from "../generator/config/index.js";
import { buildTools, discoveryData } from "../generator/model/index.js";
import { selectOperations } from "../generator/select/index.js";
import { buildApiModel } from "../openapi/build-model.js";
import { DiscoveryService } from "../runtime/discovery/discovery.js";
import { toolDefinition } from "../templates/tool-module.js";
import { labelledQueries, qualityDocument, type RankQuality, ROOT, rankQuality } from "./rank-quality.js";

/** How well `search_operations` finds the labelled operations. */
export type DiscoveryQuality = RankQuality;

/** A discovery server's search over every operation of a document, built as the generator builds it. */
async function discoveryFor(name: string): Promise<{ service: DiscoveryService; operationIds: Map<string, string> }> {
  const { document } = await qualityDocument(name);
  const model = buildApiModel(document);
  const config = resolveConfig({ server: { name }, select: { all: true }, mode: "discovery" });
  const entries = selectOperations(model, config);
  const definitions = buildTools(model, entries, config).map(toolDefinition);
  const tagNotes = new Map(model.tags.map((tag) => [tag.name, firstSentence(tag.description)]));
  const data = discoveryData(
    definitions,
    entries.map((entry) => entry.tags),
    [],
    tagNotes,
  );
  const operationIds = new Map(definitions.map((definition) => [definition.name, definition._meta.operationId ?? ""]));
  return { service: new DiscoveryService(definitions, data, name), operationIds };
}

/** The labelled set of requests over GitHub and Memos (test/fixtures/queries/discovery.json). */
export const TUNED_SET = "discovery.json";
/** The labelled set over three APIs the ranking was not tuned on (test/fixtures/queries/unseen.json). */
export const UNSEEN_SET = "unseen.json";
/** The held-out set over three more APIs, written before the ranking changes of 2026-12-03 and never tuned on. */
export const HOLDOUT_SET = "holdout.json";

/** Runs a labelled query set (in test/fixtures/queries/) against discovery servers of its APIs, per API and in all. */
export async function discoveryQuality(set = TUNED_SET): Promise<{ all: DiscoveryQuality; byApi: Map<string, DiscoveryQuality> }> {
  const servers = new Map<string, Awaited<ReturnType<typeof discoveryFor>>>();
  const queries = await labelledQueries(new URL(`test/fixtures/queries/${set}`, ROOT));
  const topFive = async (api: string, query: string, answers: readonly string[]) => {
    const server = servers.get(api) ?? (await discoveryFor(api));
    servers.set(api, server);
    const known = new Set(server.operationIds.values());
    const missing = answers.find((answer) => !known.has(answer));
    if (missing !== undefined) throw new Error(`${api} has no operation ${missing}`);
    return (await server.service.rank(query)).slice(0, 5).map((tool) => server.operationIds.get(tool.name));
  };
  const byApi = new Map<string, DiscoveryQuality>();
  for (const api of new Set(queries.map(([name]) => name))) {
    byApi.set(
      api,
      await rankQuality(
        queries.filter(([name]) => name === api),
        topFive,
      ),
    );
  }
  return { all: await rankQuality(queries, topFive), byApi };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { all, byApi } = await discoveryQuality(process.argv[2]);
  for (const [api, quality] of [...byApi, ["all", all] as const]) {
    console.log(
      `${api}: ${quality.queries} queries, hit@1 ${quality.hitAt1.toFixed(2)}, hit@5 ${quality.hitAt5.toFixed(2)}, MRR ${quality.mrr.toFixed(2)}`,
    );
  }
  if (process.argv.includes("--misses")) for (const miss of all.misses) console.log(`  ${miss}`);
}
