import { pathToFileURL } from "node:url";
import { firstSentence } from "oapi-mcp-gen-runtime";
import { resolveConfig } from "../generator/config/index.js";
import { buildTools, discoveryData } from "../generator/model/index.js";
import { selectOperations } from "../generator/select/index.js";
import { buildApiModel } from "../openapi/build-model.js";
import type { CallerCredentials } from "../runtime/call/credentials.js";
import { DiscoveryService } from "../runtime/discovery/discovery.js";
import { DISCOVERY_TOOLS } from "../runtime/discovery/discovery-tools.js";
import type { ToolRuntime } from "../runtime/tools/tool-runtime-contract.js";
import { toolDefinition } from "../templates/tool-module.js";
import { labelledQueries, qualityDocument, type RankQuality, ROOT, rankQuality } from "./rank-quality.js";

/** How well `search_operations` finds the labelled operations. */
export type DiscoveryQuality = RankQuality;

/** A discovery server's search over every operation of a document, built as the generator builds it. */
async function discoveryFor(
  name: string,
): Promise<{ service: DiscoveryService; operationIds: Map<string, string>; tags: Map<string, string> }> {
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
  const tags = new Map(
    definitions.flatMap((definition, id) =>
      entries[id]?.tags[0] ? [[definition._meta.operationId ?? "", entries[id].tags[0]] as const] : [],
    ),
  );
  return { service: new DiscoveryService(definitions, data, name), operationIds, tags };
}

/** The labelled set of requests over GitHub and Memos (test/fixtures/queries/discovery.json). */
export const TUNED_SET = "discovery.json";
/** The labelled set over three APIs the ranking was not tuned on (test/fixtures/queries/unseen.json). */
export const UNSEEN_SET = "unseen.json";
/** The held-out set over three more APIs, written before the ranking changes of 2026-12-03 and never tuned on. */
export const HOLDOUT_SET = "holdout.json";

/**
 * Runs a labelled query set (in test/fixtures/queries/) against discovery servers of its APIs, per API and in all. With
 * `narrowed`, each query is asked within the first tag of its answer, as a model does that picks the part the search
 * tool names: the ranking within a part, with the part chosen right.
 */
export async function discoveryQuality(
  set = TUNED_SET,
  narrowed = false,
): Promise<{ all: DiscoveryQuality; byApi: Map<string, DiscoveryQuality> }> {
  const servers = new Map<string, Awaited<ReturnType<typeof discoveryFor>>>();
  const queries = await labelledQueries(new URL(`test/fixtures/queries/${set}`, ROOT));
  const topFive = async (api: string, query: string, answers: readonly string[]) => {
    const server = servers.get(api) ?? (await discoveryFor(api));
    servers.set(api, server);
    const known = new Set(server.operationIds.values());
    const missing = answers.find((answer) => !known.has(answer));
    if (missing !== undefined) throw new Error(`${api} has no operation ${missing}`);
    if (!narrowed) return (await server.service.rank(query)).slice(0, 5).map((tool) => server.operationIds.get(tool.name));
    const tag = server.tags.get(answers[0] ?? "");
    const found = await server.service.call(noRuntime, DISCOVERY_TOOLS.search, { query, limit: 5, ...(tag ? { tag } : {}) }, noCaller);
    const rows = (found?.structuredContent as { results?: { name: string }[] } | undefined)?.results ?? [];
    return rows.map((row) => server.operationIds.get(row.name));
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

/** search_operations reads neither the runtime nor the caller: it only ranks. */
const noRuntime = undefined as unknown as ToolRuntime;
const noCaller = {} as CallerCredentials;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { all, byApi } = await discoveryQuality(process.argv[2], process.argv.includes("--narrowed"));
  for (const [api, quality] of [...byApi, ["all", all] as const]) {
    console.log(
      `${api}: ${quality.queries} queries, hit@1 ${quality.hitAt1.toFixed(2)}, hit@5 ${quality.hitAt5.toFixed(2)}, MRR ${quality.mrr.toFixed(2)}`,
    );
  }
  if (process.argv.includes("--misses")) for (const miss of all.misses) console.log(`  ${miss}`);
}
