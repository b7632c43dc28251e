import { type RunningServer, ToolCallError } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createClient } from "../../../generated/client.js";
import type { MemoGetMemoResult, MemoListMemosResult } from "../../../generated/index.js";
import { connectClient, startMemosServer } from "../../helpers/memos-server.js";
import { type RecordedRequest, sendJson, startUpstream } from "../../helpers/upstream.js";

describe("the typed client generated beside the registry", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  beforeAll(async () => {
    upstream = await startUpstream((request, res) => {
      if (request.path.endsWith("/missing")) return sendJson(res, 404, { message: "memo not found" });
      if (request.path === "/api/v1/memos") return sendJson(res, 200, { memos: [{ name: "memos/a", content: "hi" }], nextPageToken: "" });
      return sendJson(res, 200, { name: request.path.slice("/api/v1/".length), content: "hi" });
    });
    server = await startMemosServer(upstream.url);
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  it("calls each operation with typed arguments and results, sending what the MCP tool sends", async () => {
    const client = createClient({ baseUrl: upstream.url, authorization: "Bearer client" });
    const listed = await client.memo_list_memos({ pageSize: 2 });
    expectTypeOf(listed).toEqualTypeOf<MemoListMemosResult>();
    expect(listed.memos?.[0]?.content).toBe("hi");
    const memo = await client.memo_get_memo({ memo: "memos/abc" });
    expectTypeOf(memo).toEqualTypeOf<MemoGetMemoResult>();
    expect(memo.name).toBe("memos/abc");
    const viaClient = upstream.requests.at(-1) as RecordedRequest;
    const mcp = await connectClient(server.url, { authorization: "Bearer client" });
    await mcp.callTool({ name: "memo_get_memo", arguments: { memo: "memos/abc" } });
    await mcp.close();
    const viaServer = upstream.requests.at(-1) as RecordedRequest;
    expect({ ...viaClient, headers: undefined, rawHeaders: undefined }).toEqual({
      ...viaServer,
      headers: undefined,
      rawHeaders: undefined,
    });
    expect([viaClient.headers.authorization, viaClient.headers.accept]).toEqual([
      viaServer.headers.authorization,
      viaServer.headers.accept,
    ]);
    expect(upstream.requests.find((request) => request.path === "/api/v1/memos")?.query.get("pageSize")).toBe("2");
  });

  it("rejects with a ToolCallError where the tool would answer isError: bad arguments, upstream errors", async () => {
    const client = createClient({ baseUrl: upstream.url });
    // @ts-expect-error a number where the type wants a string: the validation still refuses it at run time.
    await expect(client.memo_get_memo({ memo: 7 })).rejects.toThrow(/memo: must be string/);
    const missing = await client.memo_get_memo({ memo: "missing" }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ToolCallError);
    expect(String(missing)).toMatch(/not found/i);
  });

  it("needs a base URL when the document names none", () => {
    expect(() => createClient()).toThrow(/no base URL: pass baseUrl/);
  });
});
