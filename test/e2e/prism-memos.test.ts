import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RunningServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PrismMock, startPrism } from "../../scripts/prism.js";
import { MEMOS_SPEC } from "../helpers/memos-model.js";
import { connectClient, startMemosServer } from "../helpers/memos-server.js";

/** One call per tool, with arguments a Memos client would send. */
const CALLS: [string, Record<string, unknown>][] = [
  [
    "memo_list_memos",
    { pageSize: 5, pageToken: "t", state: "NORMAL", orderBy: "pinned desc", filter: "pinned == true", showDeleted: false },
  ],
  ["memo_create_memo", { memoId: "m1", body: { content: "hi", state: "NORMAL", visibility: "PRIVATE", pinned: true } }],
  ["memo_get_memo", { memo: "memos/m1" }],
  ["memo_update_memo", { memo: "m1", updateMask: "content", body: { content: "edited" } }],
  ["memo_delete_memo", { memo: "m1", force: true }],
  ["memo_list_memo_comments", { memo: "m1", pageSize: 2, orderBy: "create_time desc" }],
  ["memo_create_memo_comment", { memo: "m1", commentId: "c1", body: { content: "a comment", state: "NORMAL", visibility: "PUBLIC" } }],
  ["memo_list_memo_attachments", { memo: "m1", pageSize: 3 }],
  ["memo_set_memo_attachments", { memo: "m1", body: { attachments: [{ name: "attachments/a1", filename: "a.png", type: "image/png" }] } }],
  ["memo_list_memo_reactions", { memo: "m1" }],
  ["memo_upsert_memo_reaction", { memo: "m1", body: { reaction: { contentId: "memos/m1", reactionType: "👍" } } }],
  ["memo_delete_memo_reaction", { memo: "m1", reaction: "memos/m1/reactions/r1" }],
  ["memo_list_memo_relations", { memo: "m1" }],
  [
    "memo_set_memo_relations",
    { memo: "m1", body: { relations: [{ memo: { name: "memos/m1" }, relatedMemo: { name: "memos/m2" }, type: "REFERENCE" }] } },
  ],
  ["attachment_list_attachments", { pageSize: 10, filter: 'mime_type == "image/png"' }],
  ["attachment_get_attachment", { attachment: "attachments/a1" }],
  ["attachment_delete_attachment", { attachment: "a1" }],
];

/**
 * Where the config relaxes the document on purpose, Prism (which reads the document literally) complains, and only so:
 * the `body: "*"` operations drop the path-repeated `name` (the gateway fills it from the path), and UpdateMemo is a
 * partial update, so `Memo`'s required list does not apply.
 */
const INTENDED: Record<string, string[]> = {
  memo_set_memo_attachments: ["Request body must have required property 'name'"],
  memo_set_memo_relations: ["Request body must have required property 'name'"],
  memo_upsert_memo_reaction: ["Request body must have required property 'name'"],
  memo_update_memo: ["Request body must have required property 'state'", "Request body must have required property 'visibility'"],
};

describe("generated Memos tools against a Prism mock that validates requests", () => {
  let prism: PrismMock;
  let server: RunningServer;
  let client: Client;

  beforeAll(async () => {
    prism = await startPrism(MEMOS_SPEC);
    server = await startMemosServer(prism.url);
    client = await connectClient(server.url, { Authorization: "Bearer memos_pat_prism" });
    await client.listTools();
  }, 90_000);
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await prism?.stop();
  });

  it("sends requests Prism accepts, for every tool", async () => {
    const violations: string[] = [];
    for (const [name, args] of CALLS) {
      const before = prism.output().length;
      const result = await client.callTool({ name, arguments: args });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const errors = prism
        .output()
        .slice(before)
        .split("\n")
        .filter((line) => line.includes("[VALIDATOR] ✖") && !line.includes("Violation:"))
        .map((line) => line.replace(/^.*error\s+/, ""));
      const expected = INTENDED[name] ?? [];
      if (JSON.stringify(errors) !== JSON.stringify(expected)) violations.push(`${name}: ${errors.join("; ")}`);
      if (!INTENDED[name]) expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    }
    expect(violations).toEqual([]);
    expect(CALLS.map(([name]) => name).sort()).toEqual((await client.listTools()).tools.map((tool) => tool.name).sort());
  });
});
