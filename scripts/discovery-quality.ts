import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { firstSentence } from "oapi-mcp-gen-runtime";
import { DISCOVERY_TOOLS, DiscoveryService } from "oapi-mcp-gen-runtime/discovery";
import { resolveConfig } from "../generator/config/index.js";
import { buildTools, discoveryData } from "../generator/model/index.js";
import { selectOperations } from "../generator/select/index.js";
import { buildApiModel } from "../openapi/model/index.js";
import type { CallerCredentials } from "../runtime/call/credentials.js";
import type { AskModel, CallingClient, ToolRuntime } from "../runtime/tools/tool-runtime-contract.js";
import { toolDefinition } from "../templates/tool-module.js";
import { labelledQueries, qualityDocument, type RankQuality, ROOT, rankQuality, SCORED_RESULTS } from "./rank-quality.js";

/** How well `search_operations` finds the labelled operations. */
export type DiscoveryQuality = RankQuality;

/** A discovery server's search over every operation of a document, built as the generator builds it. */
export async function discoveryFor(name: string): Promise<{
  service: DiscoveryService;
  operationIds: Map<string, string>;
  tags: Map<string, string>;
  operationIdAt: Map<string, string>;
}> {
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
  const operationIdAt = new Map(
    definitions.map((definition) => [
      `${definition._meta.method.toUpperCase()} ${definition._meta.path}`,
      definition._meta.operationId ?? "",
    ]),
  );
  return { service: new DiscoveryService(definitions, data, name), operationIds, tags, operationIdAt };
}

/** The labelled set of requests over GitHub and Memos (test/fixtures/queries/discovery.json). */
export const TUNED_SET = "discovery.json";
/** The labelled set over three APIs the ranking was not tuned on (test/fixtures/queries/unseen.json). */
export const UNSEEN_SET = "unseen.json";
/** The held-out set over three more APIs, written before the ranking changes it measures (one weight was chosen since with it in view). */
export const HOLDOUT_SET = "holdout.json";

/** Requests over Asana, Telnyx and SendGrid, written blind from the documents before any search over them (test/fixtures/queries/blind.json). */
export const BLIND_SET = "blind.json";
/** Requests over Gitea and ShipEngine, written blind from the documents (2026-12-06) before any search over them. */
export const BLIND_2_SET = "blind-2.json";
/** Requests over XTRF and Sinao, written blind from the documents (2026-12-06) before any search over them. */
export const BLIND_3_SET = "blind-3.json";

/** Stripe requests written by a helper from the document alone (test/fixtures/queries/stripe.json); tuned on since. */
export const STRIPE_SET = "stripe.json";

/** A language model's recorded answers to the held-out set's sampling prompts (test/fixtures/queries/). */
export const HOLDOUT_MODEL_PICKS = "holdout.model-picks.json";
/** The same model's answers for the unseen set. */
export const UNSEEN_MODEL_PICKS = "unseen.model-picks.json";

/** What a model answered for one request: operationIds best first; when none fitted, the parts it named and its choice there. */
interface RecordedChoice {
  readonly picks: readonly string[];
  readonly parts?: readonly string[];
  readonly partPicks?: readonly string[];
}

/** Names (operationIds or tags) by API and request. */
type ByRequest = Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;

/** A model's recorded answers (`picks`, and `parts` / `partPicks` where it named parts). */
interface ModelPicks {
  readonly picks: ByRequest;
  readonly parts?: ByRequest;
  readonly partPicks?: ByRequest;
}

/**
 * A client whose model answers with recorded choices: it finds the recorded operations among the numbered candidates
 * of each prompt (by method and path), or the recorded parts among the numbered parts, and names their numbers, as
 * the model did when it saw them. A recorded operation no longer among the candidates is not named.
 */
function replayingClient(recorded: RecordedChoice | undefined, operationIdAt: ReadonlyMap<string, string>): CallingClient {
  let choices = 0;
  const askModel: AskModel = async (params) => {
    if (recorded === undefined) throw new Error("no recorded answer for this request");
    const content = params.messages[0]?.content;
    const text = content && "text" in content ? String(content.text) : "";
    if (text.includes("\nParts:\n")) {
      const parts = text.matchAll(/^(\d+)\. (.+?) \(\d+ operations?\)/gm);
      const numbers = new Map([...parts].map(([, number, tag]) => [tag ?? "", Number(number)]));
      return (recorded.parts ?? []).flatMap((tag) => numbers.get(tag) ?? []).join(", ") || "0";
    }
    const picks = choices++ === 0 ? recorded.picks : (recorded.partPicks ?? []);
    const numbers = new Map<string, number>();
    for (const [, number, method, path] of text.matchAll(/^(\d+)\. (\S+) (\S+): /gm)) {
      const operationId = operationIdAt.get(`${method} ${path}`);
      if (operationId !== undefined) numbers.set(operationId, Number(number));
    }
    return picks.flatMap((operationId) => numbers.get(operationId) ?? []).join(", ") || "0";
  };
  return { askModel };
}

/** One request's recorded answers. */
function recordedChoice(picks: ModelPicks, api: string, query: string): RecordedChoice | undefined {
  const first = picks.picks[api]?.[query];
  if (first === undefined) return undefined;
  const parts = picks.parts?.[api]?.[query];
  const partPicks = picks.partPicks?.[api]?.[query];
  return { picks: first, ...(parts ? { parts } : {}), ...(partPicks ? { partPicks } : {}) };
}

/**
 * Runs a labelled query set (in test/fixtures/queries/) against discovery servers of its APIs, per API and in all. With
 * `narrowed`, each query is asked within the first tag of its answer, as a model does that picks the part the search
 * tool names: the ranking within a part, with the part chosen right. With `modelPicks` (a file there), the client
 * offers sampling and its model's recorded choices order the first page.
 */
export async function discoveryQuality(
  set = TUNED_SET,
  narrowed = false,
  modelPicks?: string,
): Promise<{ all: DiscoveryQuality; byApi: Map<string, DiscoveryQuality> }> {
  const recorded = modelPicks
    ? (JSON.parse(await readFile(new URL(`test/fixtures/queries/${modelPicks}`, ROOT), "utf8")) as ModelPicks)
    : undefined;
  const queries = await labelledQueries(new URL(`test/fixtures/queries/${set}`, ROOT));
  const ranked = new Map<string, Promise<(string | undefined)[]>>();
  // Each query is ranked once: the per-API figures and the overall one read the same answers.
  const topTen = (api: string, query: string, answers: readonly string[]) =>
    remembered(ranked, JSON.stringify([api, query]), () => rankOnce(api, query, answers));
  const rankOnce = async (api: string, query: string, answers: readonly string[]) => {
    const server = await remembered(servers, api, () => discoveryFor(api));
    const known = new Set(server.operationIds.values());
    const missing = answers.find((answer) => !known.has(answer));
    if (missing !== undefined) throw new Error(`${api} has no operation ${missing}`);
    if (!narrowed && !recorded)
      return (await server.service.rank(query)).slice(0, SCORED_RESULTS).map((tool) => server.operationIds.get(tool.name));
    const tag = narrowed ? server.tags.get(answers[0] ?? "") : undefined;
    const client = recorded ? replayingClient(recordedChoice(recorded, api, query), server.operationIdAt) : {};
    const args = { query, limit: SCORED_RESULTS, ...(tag ? { tag } : {}) };
    const found = await server.service.call(noRuntime, DISCOVERY_TOOLS.search, args, noCaller, client);
    const rows = (found?.structuredContent as { results?: { name: string }[] } | undefined)?.results ?? [];
    return rows.map((row) => server.operationIds.get(row.name));
  };
  const byApi = new Map<string, DiscoveryQuality>();
  for (const api of new Set(queries.map(([name]) => name))) {
    byApi.set(
      api,
      await rankQuality(
        queries.filter(([name]) => name === api),
        topTen,
      ),
    );
  }
  return { all: await rankQuality(queries, topTen), byApi };
}

/** Each API's discovery server, built once per process: every labelled set and mode asks the same servers. */
const servers = new Map<string, ReturnType<typeof discoveryFor>>();

/** What `map` holds for `key`, made and kept there on first use. */
function remembered<T>(map: Map<string, T>, key: string, make: () => T): T {
  if (!map.has(key)) map.set(key, make());
  return map.get(key) as T;
}

/** Lets go of the servers built so far (a long-lived process done with them). */
export function forgetDiscoveryServers(): void {
  servers.clear();
}

/** search_operations reads neither the runtime nor the caller: it only ranks. */
const noRuntime = undefined as unknown as ToolRuntime;
const noCaller = {} as CallerCredentials;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const model = process.argv.indexOf("--model");
  const picks = model > 0 ? process.argv[model + 1] : undefined;
  const { all, byApi } = await discoveryQuality(process.argv[2], process.argv.includes("--narrowed"), picks);
  for (const [api, quality] of [...byApi, ["all", all] as const]) {
    console.log(
      `${api}: ${quality.queries} queries, hit@1 ${quality.hitAt1.toFixed(2)}, hit@5 ${quality.hitAt5.toFixed(2)}, hit@10 ${quality.hitAt10.toFixed(2)}, MRR ${quality.mrr.toFixed(2)}`,
    );
  }
  if (process.argv.includes("--misses")) for (const miss of all.misses) console.log(`  ${miss}`);
}
