import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../generator/config/index.js";
import { buildTools } from "../../../generator/model/index.js";
import { selectOperations } from "../../../generator/select/index.js";
import { loadMemos } from "../../helpers/memos-model.js";

describe("request bodies as the document leaves them, or closed by the operator", () => {
  it("follows the document by default; schemas.closedBodies closes every body, overrides.<id>.body.closed one way or the other", async () => {
    const { model, config } = await loadMemos();
    const bodies = (given: typeof config) =>
      Object.fromEntries(
        buildTools(model, selectOperations(model, given), given)
          .filter((tool) => tool.body)
          .map((tool) => [tool.name, tool.body?.closed === true]),
      );
    const open = bodies(config);
    expect(Object.values(open).every((closed) => !closed)).toBe(true);
    const closed = bodies(
      resolveConfig({
        ...config,
        schemas: { ...config.schemas, closedBodies: true },
        overrides: {
          ...config.overrides,
          MemoService_CreateMemo: { ...config.overrides?.MemoService_CreateMemo, body: { closed: false } },
        },
      }),
    );
    expect(closed.memo_create_memo).toBe(false);
    expect(closed.memo_update_memo).toBe(true);
    expect(closed.memo_set_memo_attachments).toBe(true);
  });
});
