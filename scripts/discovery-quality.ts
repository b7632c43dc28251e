import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { buildTools } from "../generator/build-tools.js";
import { resolveConfig } from "../generator/config.js";
import { discoveryData } from "../generator/discovery.js";
import { selectOperations } from "../generator/select.js";
import { buildApiModel } from "../openapi/build-model.js";
import { readDocumentSource } from "../openapi/load.js";
import { normalizeDocument } from "../openapi/normalize.js";
import { DiscoveryService } from "../runtime/discovery.js";
import { toolDefinition } from "../templates/tool-module.js";

/** The repository root, from the source (scripts/) or the build (dist/scripts/). */
const ROOT = new URL(import.meta.url.includes("/dist/scripts/") ? "../../" : "../", import.meta.url);
const DOCUMENTS: Record<string, string> = {
  github: createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json"),
  memos: fileURLToPath(new URL("examples/memos/openapi.yaml", ROOT)),
};

/** How well `search_operations` finds the labelled operations: hits at 1 and 5, mean reciprocal rank, the misses. */
export interface DiscoveryQuality {
  queries: number;
  hitAt1: number;
  hitAt5: number;
  mrr: number;
  misses: string[];
}

/** A discovery server's search over every operation of a document, built as the generator builds it. */
async function discoveryFor(name: string): Promise<{ service: DiscoveryService; operationIds: Map<string, string> }> {
  const { document: read } = await readDocumentSource(DOCUMENTS[name] as string);
  const { document } = await normalizeDocument(read, name);
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
  const set = JSON.parse(await readFile(new URL("test/fixtures/queries/discovery.json", ROOT), "utf8")) as {
    queries: [string, string, string][];
  };
  const servers = new Map<string, Awaited<ReturnType<typeof discoveryFor>>>();
  let hitAt1 = 0;
  let hitAt5 = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const [api, query, expected] of set.queries) {
    let server = servers.get(api);
    if (!server) {
      server = await discoveryFor(api);
      servers.set(api, server);
    }
    const found = server;
    if (![...found.operationIds.values()].includes(expected)) throw new Error(`${api} has no operation ${expected}`);
    const ranked = (await found.service.rank(query)).slice(0, 5).map((tool) => found.operationIds.get(tool.name));
    const rank = ranked.indexOf(expected) + 1;
    if (rank === 1) hitAt1++;
    if (rank > 0) {
      hitAt5++;
      reciprocal += 1 / rank;
    }
    if (rank !== 1) misses.push(`${api}: "${query}" → ${expected} at ${rank || ">5"} (got ${ranked.join(", ")})`);
  }
  const queries = set.queries.length;
  return { queries, hitAt1: hitAt1 / queries, hitAt5: hitAt5 / queries, mrr: reciprocal / queries, misses };
}
