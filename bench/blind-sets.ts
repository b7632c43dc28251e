/**
 * Discovery's index alone on requests as people type them, over the blind sets: each written from its documents by
 * someone who had not seen the ranking, and committed before any change it measures. The "before" figures of the new
 * sets were measured once, on 2026-12-06, right after they were committed; this run measures them now.
 */
import { readFile } from "node:fs/promises";
import { DISCOVERY_TOOLS } from "oapi-mcp-gen-runtime/discovery";
import type { CallerCredentials } from "../runtime/call/credentials.js";
import type { ToolRuntime } from "../runtime/tools/tool-runtime-contract.js";
import { BLIND_2_SET, BLIND_3_SET, BLIND_SET, discoveryFor, discoveryQuality } from "../scripts/discovery-quality.js";
import { fmt, table } from "./stats.js";

/** hit@5 and hit@10 of a set before the ranking changes it measures (the first run after the set was committed). */
const BEFORE: Readonly<Record<string, { hitAt5: number; hitAt10: number; date: string }>> = {
  [BLIND_SET]: { hitAt5: 0.59, hitAt10: 0.67, date: "2026-12-04" },
  [BLIND_2_SET]: { hitAt5: 0.667, hitAt10: 0.8, date: "2026-12-06" },
  [BLIND_3_SET]: { hitAt5: 0.633, hitAt10: 0.733, date: "2026-12-06" },
};

/** What the sets cover. */
const APIS: Readonly<Record<string, string>> = {
  [BLIND_SET]: "Asana, Telnyx, SendGrid",
  [BLIND_2_SET]: "Gitea, ShipEngine",
  [BLIND_3_SET]: "XTRF, Sinao",
};

const percent = (share: number) => `${fmt(share * 100, 1)} %`;

export async function benchBlindSets(): Promise<string> {
  const rows: string[][] = [];
  for (const set of [BLIND_SET, BLIND_2_SET, BLIND_3_SET]) {
    const { all } = await discoveryQuality(set);
    const before = BEFORE[set];
    rows.push([
      `${set} (${APIS[set]}), ${all.queries} requests`,
      before ? `${percent(before.hitAt5)} / ${percent(before.hitAt10)} (${before.date})` : "—",
      `${percent(all.hitAt1)} / ${percent(all.hitAt5)} / ${percent(all.hitAt10)}`,
    ]);
  }
  const measured = table(
    ["blind set (target: hit@5 ≥ 80 %, hit@10 ≥ 90 %)", "before: hit@5 / hit@10", "now: hit@1 / hit@5 / hit@10"],
    rows,
  );
  return `${measured}\n\n${await recordedModelRun()}`;
}

/** A model-in-the-loop run, as recorded in bench/agent-search/ (its call log and its choices). */
const MODEL_RUN = {
  calls: "bench/agent-search/blind-23-calls.jsonl",
  choices: "bench/agent-search/blind-23-choices.tsv",
  sets: "blind-2 and blind-3",
};

/** How the recorded run's choices stand in its first searches: in the top 10, first, and searches a request. */
export async function recordedModelRun(): Promise<string> {
  const root = new URL("../../", import.meta.url);
  const firstSearch = new Map<number, string[]>();
  // The same first searches asked again of this commit's servers: what the model would see now.
  const replayed = new Map<number, string[]>();
  const searches = new Map<number, number>();
  let request = 0;
  for (const line of (await readFile(new URL(MODEL_RUN.calls, root), "utf8")).split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as {
      request?: number;
      api?: string;
      tool?: string;
      arguments?: Record<string, unknown>;
      names?: string[];
    };
    if (entry.request !== undefined) request = entry.request;
    else if (entry.tool === DISCOVERY_TOOLS.search) {
      searches.set(request, (searches.get(request) ?? 0) + 1);
      if (firstSearch.has(request)) continue;
      firstSearch.set(request, (entry.names ?? []).slice(0, 10));
      const { service } = await discoveryFor(entry.api ?? "");
      const found = await service.call(
        undefined as unknown as ToolRuntime,
        DISCOVERY_TOOLS.search,
        entry.arguments ?? {},
        {} as CallerCredentials,
      );
      const rows = (found?.structuredContent as { results?: { name: string }[] } | undefined)?.results ?? [];
      replayed.set(request, rows.map((row) => row.name).slice(0, 10));
    }
  }
  const chosen = (await readFile(new URL(MODEL_RUN.choices, root), "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split("\t"));
  const count = chosen.length;
  const inTop = (searched: Map<number, string[]>) =>
    chosen.filter(([number = "", name = ""]) => searched.get(Number(number))?.includes(name.trim())).length;
  const atFirst = (searched: Map<number, string[]>) =>
    chosen.filter(([number = "", name = ""]) => searched.get(Number(number))?.[0] === name.trim()).length;
  const [top, first] = [inTop(firstSearch), atFirst(firstSearch)];
  const total = [...searches.values()].reduce((sum, each) => sum + each, 0);
  return (
    `A model in the loop on ${MODEL_RUN.sets} (${count} requests, recorded in bench/agent-search/; target: first ≥ 80 %, top 10 ≥ 98 %, ` +
    `≤ 1.1 searches): its choice in its first search's top 10 for ${top} (${percent(top / count)}), first for ${first} ` +
    `(${percent(first / count)}), ${fmt(total / count, 2)} searches a request. The same first searches asked of this ` +
    `commit: its choice in the top 10 for ${inTop(replayed)}, first for ${atFirst(replayed)}.`
  );
}
