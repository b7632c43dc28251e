import { describe, expect, it } from "vitest";
import { searchQuality } from "../../../scripts/search-quality.js";

describe("search quality on the labelled set (test/fixtures/queries/search.json)", () => {
  it("puts the expected operation in the top 5 for >= 98% of queries and first for >= 90%, over at least three documents", async () => {
    const quality = await searchQuality();
    console.log(
      `search quality: ${quality.queries} queries over ${quality.documents} documents, hit@1 ${quality.hitAt1.toFixed(3)}, ` +
        `hit@5 ${quality.hitAt5.toFixed(3)}, MRR ${quality.mrr.toFixed(3)}\n  ${quality.misses.join("\n  ")}`,
    );
    expect(quality.queries).toBeGreaterThanOrEqual(80);
    expect(quality.documents).toBeGreaterThanOrEqual(3);
    expect(quality.hitAt5).toBeGreaterThanOrEqual(0.98);
    expect(quality.hitAt1).toBeGreaterThanOrEqual(0.9);
  }, 60_000);
});
