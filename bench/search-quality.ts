import { searchQuality } from "../scripts/search-quality.js";
import { fmt, table } from "./stats.js";

/** Search quality of `search_endpoints` on the labelled set, against the targets of the hidden set. */
export async function benchSearchQuality(): Promise<string> {
  const quality = await searchQuality();
  const percent = (value: number) => `${fmt(value * 100, 1)}%`;
  return `### Search quality (${quality.queries} labelled queries over ${quality.documents} documents, test/fixtures/queries/search.json)\n\n${table(
    ["measure", "labelled set", "target (hidden set)"],
    [
      ["hit@1", percent(quality.hitAt1), "≥ 90%"],
      ["hit@5", percent(quality.hitAt5), "≥ 98%"],
      ["MRR", fmt(quality.mrr, 3), "—"],
    ],
  )}\n\nMissed at rank 1: ${quality.misses.length}.\n\n${quality.misses.map((miss) => `- ${miss}`).join("\n")}`;
}
