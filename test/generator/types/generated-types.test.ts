import { describe, expectTypeOf, it } from "vitest";
import type { components } from "../../../generated/api-types.js";
import type {
  MemoCreateMemoArgs,
  MemoDeleteMemoResult,
  MemoGetMemoArgs,
  MemoListMemosArgs,
  MemoListMemosResult,
  MemoUpdateMemoArgs,
  MemoUpsertMemoReactionArgs,
  memoGetMemo,
} from "../../../generated/index.js";
import type { ToolArgs, ToolResult } from "../../../runtime/base/tool.js";

type Memo = components["schemas"]["Memo"];

// These assertions are checked by `tsc --noEmit` (test/generator/output/typecheck.test.ts); at run time they are no-ops.
describe("generated tool types come from the openapi-typescript types", () => {
  it("types path, query and body arguments", () => {
    expectTypeOf<MemoGetMemoArgs>().toEqualTypeOf<{ memo: string }>();
    expectTypeOf<MemoListMemosArgs["pageSize"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<MemoCreateMemoArgs["body"]["content"]>().toEqualTypeOf<string>();
    expectTypeOf<MemoCreateMemoArgs["body"]["visibility"]>().toEqualTypeOf<Memo["visibility"] | undefined>();
    // @ts-expect-error readOnly fields are not part of a request body
    expectTypeOf<MemoCreateMemoArgs["body"]["creator"]>().toBeString();
    // UpdateMemo accepts the name a read memo carries (and drops it before the call).
    expectTypeOf<MemoUpdateMemoArgs["body"]["name"]>().toEqualTypeOf<Memo["name"]>();
    expectTypeOf<MemoUpdateMemoArgs["body"]["content"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<keyof MemoUpsertMemoReactionArgs["body"]>().toEqualTypeOf<"reaction">();
  });

  it("types structured results", () => {
    expectTypeOf<MemoListMemosResult["memos"]>().toEqualTypeOf<Memo[] | undefined>();
    expectTypeOf<MemoDeleteMemoResult>().toEqualTypeOf<{ ok?: boolean }>();
    expectTypeOf<ToolArgs<typeof memoGetMemo>>().toEqualTypeOf<MemoGetMemoArgs>();
    expectTypeOf<ToolResult<typeof memoGetMemo>>().toEqualTypeOf<Memo>();
  });
});
