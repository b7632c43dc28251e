import type { ServerResponse } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RunningServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectClient, startMemosServer } from "../../helpers/memos-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

const TOKEN = "Bearer memos_pat_test";
const MEMO = { name: "memos/abc123", state: "NORMAL", content: "hello", visibility: "PRIVATE", pinned: false };

describe("generated Memos tools call the upstream REST API exactly", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let client: Client;

  beforeAll(async () => {
    upstream = await startUpstream();
    server = await startMemosServer(upstream.url, { timeoutMs: 1_500 });
    client = await connectClient(server.url, { Authorization: TOKEN });
    await client.listTools();
  });
  beforeEach(() => {
    upstream.requests.length = 0;
    upstream.respondWith((_, res) => sendJson(res, 200, MEMO));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await upstream.close();
  });

  async function call(name: string, args: Record<string, unknown>) {
    const result = await client.callTool({ name, arguments: args });
    expect(upstream.requests.length).toBeLessThanOrEqual(1);
    return { result, request: upstream.requests[0] };
  }

  it("GET /api/v1/memos?pageSize=…", async () => {
    upstream.respondWith((_, res) => sendJson(res, 200, { memos: [MEMO], nextPageToken: "n2" }));
    const { result, request } = await call("memo_list_memos", { pageSize: 10, filter: 'visibility == "PUBLIC"', showDeleted: false });
    expect(request).toMatchObject({ method: "GET", path: "/api/v1/memos", body: "" });
    expect(Object.fromEntries(request?.query ?? [])).toEqual({ pageSize: "10", filter: 'visibility == "PUBLIC"', showDeleted: "false" });
    expect(request?.headers.authorization).toBe(TOKEN);
    expect(result.structuredContent).toEqual({ memos: [MEMO], nextPageToken: "n2" });
  });

  it("POST /api/v1/memos with the JSON body", async () => {
    const { result, request } = await call("memo_create_memo", { memoId: "m1", body: { content: "hello", visibility: "PRIVATE" } });
    expect(request).toMatchObject({ method: "POST", path: "/api/v1/memos" });
    expect(request?.query.get("memoId")).toBe("m1");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request?.body ?? "")).toEqual({ content: "hello", visibility: "PRIVATE" });
    expect(request?.headers.authorization).toBe(TOKEN);
    expect(result.structuredContent).toEqual(MEMO);
  });

  it("GET /api/v1/memos/{memo}, accepting a bare id or the full name", async () => {
    for (const memo of ["abc123", "memos/abc123"]) {
      upstream.requests.length = 0;
      const { request } = await call("memo_get_memo", { memo });
      expect(request).toMatchObject({ method: "GET", path: "/api/v1/memos/abc123" });
      expect(request?.headers.authorization).toBe(TOKEN);
    }
  });

  it("PATCH /api/v1/memos/{memo} with updateMask and a partial body", async () => {
    const { request } = await call("memo_update_memo", {
      memo: "abc123",
      updateMask: "content,pinned",
      body: { content: "new", pinned: true },
    });
    expect(request).toMatchObject({ method: "PATCH", path: "/api/v1/memos/abc123" });
    expect(request?.query.get("updateMask")).toBe("content,pinned");
    expect(JSON.parse(request?.body ?? "")).toEqual({ content: "new", pinned: true });
    expect(request?.headers.authorization).toBe(TOKEN);
  });

  it("DELETE /api/v1/memos/{memo}", async () => {
    upstream.respondWith((_, res) => sendJson(res, 200, {}));
    const { result, request } = await call("memo_delete_memo", { memo: "abc123", force: true });
    expect(request).toMatchObject({ method: "DELETE", path: "/api/v1/memos/abc123", body: "" });
    expect(request?.query.get("force")).toBe("true");
    expect(request?.headers.authorization).toBe(TOKEN);
    // Memos answers `{}`, and so does the tool (only an empty body becomes `{ ok: true }`).
    expect(result.structuredContent).toEqual({});
  });

  it("GET /api/v1/memos/{memo}/comments", async () => {
    upstream.respondWith((_, res) => sendJson(res, 200, { memos: [], nextPageToken: "" }));
    const { request } = await call("memo_list_memo_comments", { memo: "abc123", pageSize: 5 });
    expect(request).toMatchObject({ method: "GET", path: "/api/v1/memos/abc123/comments" });
    expect(request?.query.get("pageSize")).toBe("5");
    expect(request?.headers.authorization).toBe(TOKEN);
  });

  it("POST /api/v1/memos/{memo}/reactions without the repeated name in the body", async () => {
    upstream.respondWith((_, res) => sendJson(res, 200, { name: "memos/abc123/reactions/r1", reactionType: "👍" }));
    const { result, request } = await call("memo_upsert_memo_reaction", {
      memo: "abc123",
      body: { reaction: { contentId: "memos/abc123", reactionType: "👍" } },
    });
    expect(request).toMatchObject({ method: "POST", path: "/api/v1/memos/abc123/reactions" });
    expect(JSON.parse(request?.body ?? "")).toEqual({ reaction: { contentId: "memos/abc123", reactionType: "👍" } });
    expect(request?.headers.authorization).toBe(TOKEN);
    expect(result.structuredContent).toMatchObject({ reactionType: "👍" });
  });

  it("DELETE a reaction by its full name", async () => {
    upstream.respondWith((_, res) => sendJson(res, 200, {}));
    const { request } = await call("memo_delete_memo_reaction", { memo: "abc123", reaction: "memos/abc123/reactions/r1" });
    expect(request).toMatchObject({ method: "DELETE", path: "/api/v1/memos/abc123/reactions/r1" });
  });

  it("percent-encodes path values so an argument cannot change the path", async () => {
    const { request } = await call("memo_get_memo", { memo: "../users/1?x=#" });
    expect(request?.path).toBe("/api/v1/memos/..%2Fusers%2F1%3Fx%3D%23");
    upstream.requests.length = 0;
    const dots = await call("memo_get_memo", { memo: ".." });
    expect(dots.result.isError).toBe(true);
    expect(dots.request).toBeUndefined();
  });

  it("rejects invalid arguments without calling upstream", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["memo_get_memo", {}, /memo/],
      ["memo_create_memo", { body: { visibility: "PRIVATE" } }, /content/],
      ["memo_update_memo", { memo: "a", body: {} }, /fewer than 1 properties/],
      ["memo_list_memos", { pageSize: "ten" }, /pageSize: must be integer/],
      ["memo_list_memos", { bogus: 1 }, /unknown property "bogus" \(it takes pageSize, pageToken, state, orderBy, filter, showDeleted\)$/],
      // A near miss names the property meant, at any depth.
      ["memo_list_memos", { pageSise: 2 }, /unknown property "pageSise"; did you mean "pageSize"\?$/],
    ];
    for (const [name, args, message] of cases) {
      const { result, request } = await call(name, args);
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect((result.content as { text: string }[])[0]?.text).toMatch(message);
      expect(request).toBeUndefined();
    }
  });

  describe("error mapping", () => {
    const cases: [string, (res: import("node:http").ServerResponse) => void, RegExp][] = [
      [
        "401 with a text/plain JSON body",
        (res) => sendJson(res, 401, '{"code": 16, "message": "authentication required"}\n', "text/plain"),
        /^Unauthorized \(401\): authentication required$/,
      ],
      [
        "403",
        (res) => sendJson(res, 403, { code: 7, message: "permission denied", details: [] }),
        /^Forbidden \(403\): permission denied$/,
      ],
      ["404", (res) => sendJson(res, 404, { code: 5, message: "memo not found", details: [] }), /^Not found \(404\): memo not found$/],
      [
        "500",
        (res) => sendJson(res, 500, { code: 13, message: "database is locked", details: [] }),
        /^Upstream API error 500: database is locked$/,
      ],
    ];
    for (const [label, respond, message] of cases) {
      it(`maps ${label} to an isError result`, async () => {
        upstream.respondWith((_, res) => respond(res));
        const { result } = await call("memo_get_memo", { memo: "abc123" });
        expect(result.isError).toBe(true);
        expect(result.structuredContent).toBeUndefined();
        expect((result.content as { text: string }[])[0]?.text).toMatch(message);
      });
    }

    it("returns a successful body that is not JSON, or that strays from the document, as structured content: never as an error", async () => {
      for (const [respond, structured] of [
        [(res: ServerResponse) => sendJson(res, 200, "{not json", "application/json"), { result: "{not json" }],
        [(res: ServerResponse) => sendJson(res, 200, { content: 42 }), { content: 42 }],
        [(res: ServerResponse) => sendJson(res, 200, { constructor: "x" }), { result: { constructor: "x" } }],
        // Nested past what JSON.stringify can write out again: the text, cut to its first 100,000 characters.
        [
          (res: ServerResponse) => sendJson(res, 200, `${"[".repeat(100_000)}${"]".repeat(100_000)}`, "application/json"),
          { result: `${"[".repeat(100_000)}… [truncated: 200000 characters in all]` },
        ],
      ] as const) {
        upstream.requests.length = 0;
        upstream.respondWith((_, res) => respond(res));
        // The SDK's callTool refuses a result without structuredContent for a tool with an output schema: it has one.
        const result = await client.callTool({ name: "memo_get_memo", arguments: { memo: "abc123" } });
        expect(result.isError).toBeUndefined();
        expect(result.structuredContent).toEqual(structured);
        expect(result.content).toEqual([{ type: "text", text: JSON.stringify(structured) }]);
      }
    });

    it("accepts nulls and missing fields the document does not allow, returning them as structured content", async () => {
      const drifted = { ...MEMO, content: null, visibility: undefined, pinned: null };
      upstream.respondWith((_, res) => sendJson(res, 200, drifted));
      const { result } = await call("memo_get_memo", { memo: "abc123" });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(JSON.parse(JSON.stringify(drifted)));
    });

    it("reports a timeout and keeps serving", async () => {
      upstream.respondWith(() => {});
      const { result } = await call("memo_get_memo", { memo: "abc123" });
      expect((result.content as { text: string }[])[0]?.text).toMatch(/did not answer within 1500 ms/);
      upstream.respondWith((_, res) => sendJson(res, 200, MEMO));
      expect((await client.callTool({ name: "memo_get_memo", arguments: { memo: "abc123" } })).isError).toBeFalsy();
    });
  });

  it("reports an unreachable upstream concisely", async () => {
    const dead = await startUpstream();
    const deadUrl = dead.url;
    await dead.close();
    const lonely = await startMemosServer(deadUrl);
    const other = await connectClient(lonely.url);
    try {
      const result = await other.callTool({ name: "memo_get_memo", arguments: { memo: "a" } });
      expect(result.isError).toBe(true);
      // Why, and what the operator checks; the host stays in the log, never in what a caller sees.
      expect((result.content as { text: string }[])[0]?.text).toBe(
        "The upstream API is unreachable (GET /api/v1/memos/{memo}: connection refused, ECONNREFUSED); the server's operator should check API_BASE_URL.",
      );
    } finally {
      await other.close();
      await lonely.close();
    }
  });
});
