import { buildTools } from "../generator/build-tools.js";
import { resolveConfig } from "../generator/config.js";
import { discoveryData } from "../generator/discovery.js";
import { selectOperations } from "../generator/select.js";
import { buildApiModel } from "../openapi/build-model.js";
import { DiscoveryService } from "../runtime/discovery.js";
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
  const data = discoveryData(
    definitions,
    entries.map((entry) => entry.tags),
    [],
  );
  const operationIds = new Map(definitions.map((definition) => [definition.name, definition._meta.operationId ?? ""]));
  return { service: new DiscoveryService(definitions, data, name), operationIds };
}

/** Runs the labelled query set (test/fixtures/queries/discovery.json) against discovery servers of GitHub and Memos. */
export async function discoveryQuality(): Promise<DiscoveryQuality> {
  const servers = new Map<string, Awaited<ReturnType<typeof discoveryFor>>>();
  return rankQuality(await labelledQueries(new URL("test/fixtures/queries/discovery.json", ROOT)), async (api, query, expected) => {
    const server = servers.get(api) ?? (await discoveryFor(api));
    servers.set(api, server);
    if (![...server.operationIds.values()].includes(expected)) throw new Error(`${api} has no operation ${expected}`);
    return (await server.service.rank(query)).slice(0, 5).map((tool) => server.operationIds.get(tool.name));
  });
}
