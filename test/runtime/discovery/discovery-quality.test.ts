import { afterAll, describe, expect, it } from "vitest";
import {
  BLIND_2_SET,
  BLIND_3_SET,
  BLIND_SET,
  discoveryQuality,
  forgetDiscoveryServers,
  HOLDOUT_MODEL_PICKS,
  HOLDOUT_SET,
  STRIPE_SET,
  UNSEEN_MODEL_PICKS,
  UNSEEN_SET,
} from "../../../scripts/discovery-quality.js";

describe("search_operations over GitHub's and Memos' documents (every operation)", () => {
  afterAll(forgetDiscoveryServers);

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

  it("keeps its level on 105 requests over three APIs it was not tuned on (DigitalOcean, Box, Trello): a floor, not the goal", async () => {
    const { all, byApi } = await discoveryQuality(UNSEEN_SET);
    console.log(
      [...byApi, ["all", all] as const]
        .map(([api, each]) => `${api}: hit@1 ${each.hitAt1.toFixed(2)}, hit@5 ${each.hitAt5.toFixed(2)}, MRR ${each.mrr.toFixed(2)}`)
        .join("\n"),
    );
    expect(all.queries).toBe(105);
    expect(all.hitAt5).toBeGreaterThanOrEqual(0.8);
    expect(all.hitAt1).toBeGreaterThanOrEqual(0.49);
  }, 120_000);

  it("keeps its level on 77 held-out requests over Zoom, Jira and Vimeo, and within the part a model picks: floors, not the goal", async () => {
    const plain = await discoveryQuality(HOLDOUT_SET);
    const narrowed = await discoveryQuality(HOLDOUT_SET, true);
    console.log(
      `held out: hit@1 ${plain.all.hitAt1.toFixed(2)}, hit@5 ${plain.all.hitAt5.toFixed(2)}; ` +
        `within the answer's tag: hit@1 ${narrowed.all.hitAt1.toFixed(2)}, hit@5 ${narrowed.all.hitAt5.toFixed(2)}`,
    );
    expect(plain.all.queries).toBe(77);
    expect(plain.all.hitAt5).toBeGreaterThanOrEqual(0.77);
    expect(plain.all.hitAt10).toBeGreaterThanOrEqual(0.87);
    expect(plain.all.hitAt1).toBeGreaterThanOrEqual(0.56);
    // Narrowed by the tag the search tool names, the ranking within a part.
    expect(narrowed.all.hitAt5).toBeGreaterThanOrEqual(0.95);
    expect(narrowed.all.hitAt1).toBeGreaterThanOrEqual(0.74);
  }, 180_000);

  it("finds the operation in the top 5 for >= 80% and the top 10 for >= 90% of 90 requests written blind over Asana, Telnyx and SendGrid", async () => {
    // Written from the documents before any search over them ran; first measured at hit@5 0.59, hit@10 0.67.
    const { all, byApi } = await discoveryQuality(BLIND_SET);
    console.log(
      [...byApi, ["all", all] as const]
        .map(([api, each]) => `${api}: hit@1 ${each.hitAt1.toFixed(2)}, hit@5 ${each.hitAt5.toFixed(2)}, hit@10 ${each.hitAt10.toFixed(2)}`)
        .join("\n"),
    );
    expect(all.queries).toBe(90);
    expect(all.hitAt5).toBeGreaterThanOrEqual(0.8);
    expect(all.hitAt10).toBeGreaterThanOrEqual(0.9);
  }, 180_000);

  it("finds the operation in the top 5 for >= 80% and the top 10 for >= 90% of 60 requests written blind over Gitea and ShipEngine, and of 60 over XTRF and Sinao", async () => {
    // Written from the documents and committed before any ranking change; first measured at hit@5 0.67 / 0.63, hit@10 0.80 / 0.73.
    const floors = new Map([
      [BLIND_2_SET, { hitAt5: 0.8, hitAt10: 0.9 }],
      [BLIND_3_SET, { hitAt5: 0.8, hitAt10: 0.9 }],
    ]);
    for (const [set, floor] of floors) {
      const { all } = await discoveryQuality(set);
      console.log(`${set}: hit@1 ${all.hitAt1.toFixed(2)}, hit@5 ${all.hitAt5.toFixed(2)}, hit@10 ${all.hitAt10.toFixed(2)}`);
      expect(all.queries).toBe(60);
      expect(all.hitAt5).toBeGreaterThanOrEqual(floor.hitAt5);
      expect(all.hitAt10).toBeGreaterThanOrEqual(floor.hitAt10);
    }
  }, 180_000);

  it("keeps its level on 40 Stripe requests a helper wrote from the document (ids and everyday words included): a floor", async () => {
    const { all } = await discoveryQuality(STRIPE_SET);
    console.log(
      `stripe: hit@1 ${all.hitAt1.toFixed(2)}, hit@5 ${all.hitAt5.toFixed(2)}, MRR ${all.mrr.toFixed(2)}\n  ${all.misses.join("\n  ")}`,
    );
    expect(all.queries).toBe(40);
    expect(all.hitAt5).toBeGreaterThanOrEqual(0.77);
    expect(all.hitAt1).toBeGreaterThanOrEqual(0.7);
  }, 180_000);

  it("meets hit@1 >= 0.80 and hit@5 >= 0.95 on both unseen sets when the client's model chooses (recorded answers, replayed)", async () => {
    // One model's answers to the sampling prompts, replayed through the server's sampling path: a pick counts only if
    // the index still shows it in the prompt (among the 50 best matches, or the operations of the parts it named).
    for (const [set, picks] of [
      [HOLDOUT_SET, HOLDOUT_MODEL_PICKS],
      [UNSEEN_SET, UNSEEN_MODEL_PICKS],
    ] as const) {
      const { all, byApi } = await discoveryQuality(set, false, picks);
      console.log(`${set}, the client's model choosing: hit@1 ${all.hitAt1.toFixed(2)}, hit@5 ${all.hitAt5.toFixed(2)}`);
      expect(all.hitAt5).toBeGreaterThanOrEqual(0.97);
      expect(all.hitAt1).toBeGreaterThanOrEqual(0.95);
      for (const each of byApi.values()) expect(each.hitAt1).toBeGreaterThanOrEqual(0.9);
    }
  }, 180_000);
});
