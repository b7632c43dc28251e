import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type NormalizedDocument, normalizeDocument, readDocumentSource } from "../openapi/document/index.js";

/** The repository root, from the source (scripts/) or the build (dist/scripts/). */
export const ROOT = new URL(import.meta.url.includes("/dist/scripts/") ? "../../" : "../", import.meta.url);

/** The documents the labelled query sets ask of, by the name the sets use. */
export const QUALITY_DOCUMENTS: Readonly<Record<string, string>> = {
  github: createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json"),
  memos: fileURLToPath(new URL("examples/memos/openapi.yaml", ROOT)),
  docker: fileURLToPath(new URL("test/fixtures/docker-engine/swagger.yaml", ROOT)),
  museum: fileURLToPath(new URL("test/fixtures/redocly-museum/openapi.yaml", ROOT)),
  galaxy: fileURLToPath(new URL("test/fixtures/scalar-galaxy/openapi.yaml", ROOT)),
  digitalocean: fileURLToPath(new URL("test/fixtures/unseen/digitalocean.json", ROOT)),
  box: fileURLToPath(new URL("test/fixtures/unseen/box.json", ROOT)),
  trello: fileURLToPath(new URL("test/fixtures/unseen/trello.json", ROOT)),
  zoom: fileURLToPath(new URL("test/fixtures/holdout/zoom.json", ROOT)),
  jira: fileURLToPath(new URL("test/fixtures/holdout/jira.json", ROOT)),
  vimeo: fileURLToPath(new URL("test/fixtures/holdout/vimeo.json", ROOT)),
  stripe: fileURLToPath(new URL("test/fixtures/stripe/stripe.com.json", ROOT)),
  asana: fileURLToPath(new URL("test/fixtures/blind/asana.json", ROOT)),
  telnyx: fileURLToPath(new URL("test/fixtures/blind/telnyx.json", ROOT)),
  sendgrid: fileURLToPath(new URL("test/fixtures/blind/sendgrid.json", ROOT)),
  gitea: fileURLToPath(new URL("test/fixtures/blind-2/gitea.json", ROOT)),
  shipengine: fileURLToPath(new URL("test/fixtures/blind-2/shipengine.json", ROOT)),
  xtrf: fileURLToPath(new URL("test/fixtures/blind-3/xtrf.json", ROOT)),
  sinao: fileURLToPath(new URL("test/fixtures/blind-3/sinao.json", ROOT)),
};

/** One of those documents, read and normalised. */
export async function qualityDocument(name: string): Promise<NormalizedDocument> {
  const path = QUALITY_DOCUMENTS[name];
  if (path === undefined) throw new Error(`no document named ${name} for the labelled queries`);
  const { document } = await readDocumentSource(path);
  return normalizeDocument(document, name);
}

/** How well a search ranks labelled queries: hits at 1, 5 and 10, mean reciprocal rank, and each query missed at rank 1. */
export interface RankQuality {
  queries: number;
  hitAt1: number;
  hitAt5: number;
  hitAt10: number;
  mrr: number;
  misses: string[];
}

/** A labelled query: the API it is asked of, what a user types, and the operationIds that answer it (most often one). */
export type LabelledQuery = [api: string, query: string, answers: readonly string[]];

/** Reads a labelled query set (`{ "queries": [[api, query, operationId or [operationIds…]], …] }`). */
export async function labelledQueries(file: URL): Promise<LabelledQuery[]> {
  const { queries } = JSON.parse(await readFile(file, "utf8")) as { queries: [string, string, string | string[]][] };
  return queries.map(([api, query, answers]) => [api, query, typeof answers === "string" ? [answers] : answers]);
}

/** How many results a search is scored on (hit@10); MRR counts the first ten. */
export const SCORED_RESULTS = 10;

/**
 * Scores a search on labelled queries. `topTen` answers with the operationIds of its first results (ten, or five
 * where only five are asked for); it throws when the API has no operation with the expected id (the set would be
 * wrong, not the search).
 */
export async function rankQuality(
  queries: readonly LabelledQuery[],
  topTen: (api: string, query: string, answers: readonly string[]) => Promise<(string | undefined)[]>,
): Promise<RankQuality> {
  let hitAt1 = 0;
  let hitAt5 = 0;
  let hitAt10 = 0;
  let reciprocal = 0;
  const misses: string[] = [];
  for (const [api, query, answers] of queries) {
    const ranked = (await topTen(api, query, answers)).slice(0, SCORED_RESULTS);
    const rank = ranked.findIndex((operationId) => operationId !== undefined && answers.includes(operationId)) + 1;
    if (rank === 1) hitAt1++;
    if (rank > 0 && rank <= 5) hitAt5++;
    if (rank > 0) {
      hitAt10++;
      reciprocal += 1 / rank;
    }
    if (rank !== 1)
      misses.push(`${api}: "${query}" → ${answers.join(" or ")} at ${rank || `>${ranked.length}`} (got ${ranked.slice(0, 5).join(", ")})`);
  }
  const count = queries.length;
  return { queries: count, hitAt1: hitAt1 / count, hitAt5: hitAt5 / count, hitAt10: hitAt10 / count, mrr: reciprocal / count, misses };
}
