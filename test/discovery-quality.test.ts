import { describe, expect, it } from "vitest";
import { discoveryQuality } from "../scripts/discovery-quality.js";

describe("search_operations over GitHub's and Memos' documents (every operation)", () => {
  it("finds the labelled operation in the top 5 for >= 90% of 76 user-phrased queries, first for >= 70%", async () => {
    const { all: quality } = await discoveryQuality();
    console.log(
      `discovery search: ${quality.queries} queries, hit@1 ${quality.hitAt1.toFixed(3)}, hit@5 ${quality.hitAt5.toFixed(3)}, ` +
        `MRR ${quality.mrr.toFixed(3)}\n  ${quality.misses.join("\n  ")}`,
    );
    expect(quality.queries).toBeGreaterThanOrEqual(60);
    expect(quality.hitAt5).toBeGreaterThanOrEqual(0.9);
    expect(quality.hitAt1).toBeGreaterThanOrEqual(0.7);
  }, 120_000);
});
