/**
 * Discovery's index alone on requests as people type them, over the blind sets: each written from its documents by
 * someone who had not seen the ranking, and committed before any change it measures. The "before" figures of the new
 * sets were measured once, on 2026-12-06, right after they were committed; this run measures them now.
 */
import { BLIND_2_SET, BLIND_3_SET, BLIND_SET, discoveryQuality } from "../scripts/discovery-quality.js";
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
  return table(["blind set (target: hit@5 ≥ 80 %, hit@10 ≥ 90 %)", "before: hit@5 / hit@10", "now: hit@1 / hit@5 / hit@10"], rows);
}
