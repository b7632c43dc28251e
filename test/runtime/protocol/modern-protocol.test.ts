import { type RunningServer, silentLogger, startServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverIdentity, tools } from "../../../generated/index.js";
import { decodeHeaderValue } from "../../../runtime/protocol/modern-protocol.js";
import { startMemosServer, testEnvironment } from "../../helpers/memos-server.js";
import { MUSEUM, startSearch } from "../../helpers/search-server.js";
import { type RecordedRequest, sendJson, startUpstream } from "../../helpers/upstream.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "test", version: "1" },
};

interface Exchange {
  status: number;
  /** The parsed JSON body; empty when there was none. */
  body: Record<string, unknown>;
}

/** POSTs one JSON-RPC message as a 2026-07-28 client would, with the standard headers derived from it unless given. */
async function post(url: URL, message: unknown, headers: Record<string, string | undefined> = {}): Promise<Exchange> {
  const record = typeof message === "object" && message !== null && !Array.isArray(message) ? (message as Record<string, unknown>) : {};
  const params = (record.params ?? {}) as Record<string, unknown>;
  const standard: Record<string, string | undefined> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": typeof record.method === "string" ? record.method : undefined,
    "mcp-name": typeof params.name === "string" ? params.name : undefined,
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(standard).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = await fetch(url, { method: "POST", headers: sent, body: JSON.stringify(message) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method,
  params: { ...params, _meta: ENVELOPE },
});

/** POSTs a 2025-era request after no initialize (the stateless server needs none). */
async function postLegacy(url: URL, message: unknown, authorization?: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify(message),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe("MCP 2026-07-28 on the generated server, beside 2025-11-25", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  beforeAll(async () => {
    upstream = await startUpstream((recorded, res) => sendJson(res, 200, { name: recorded.path.slice("/api/v1/".length), content: "hi" }));
    server = await startMemosServer(upstream.url, { allowedOrigins: ["https://app.example"] });
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  it("discovers the server: versions, tools capability, identity in _meta, cache hints", async () => {
    const { status, body } = await post(server.url, request(1, "server/discover"));
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: { listChanged: false } },
      instructions: serverIdentity.instructions,
      cacheScope: "public",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "memos", version: "0.1.0" } },
    });
  });

  it("lists the same tools and calls them with the same upstream request and result as a 2025 client", async () => {
    const listed = await post(server.url, request(2, "tools/list"));
    const legacyList = await postLegacy(server.url, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((listed.body.result as { tools: unknown }).tools).toEqual((legacyList.result as { tools: unknown }).tools);
    expect(listed.body.result).toMatchObject({ resultType: "complete", ttlMs: expect.any(Number), cacheScope: "public" });

    const args = { name: "memo_get_memo", arguments: { memo: "abc" } };
    const modern = await post(server.url, request(3, "tools/call", args), { authorization: "Bearer modern" });
    const legacy = await postLegacy(server.url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: args }, "Bearer legacy");
    const [first, second] = upstream.requests.slice(-2) as [RecordedRequest, RecordedRequest];
    expect({ ...first, headers: undefined, rawHeaders: undefined }).toEqual({ ...second, headers: undefined, rawHeaders: undefined });
    expect([first.headers.authorization, second.headers.authorization]).toEqual(["Bearer modern", "Bearer legacy"]);
    const { resultType, _meta, ...result } = modern.body.result as Record<string, unknown>;
    expect(resultType).toBe("complete");
    expect(_meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: "memos" } });
    expect(result).toEqual(legacy.result);
  });

  it("keeps a tool's own failure in-band and an unknown tool an invalid-params error, both with HTTP 200", async () => {
    const unknown = await post(server.url, request(4, "tools/call", { name: "nope", arguments: {} }));
    expect(unknown).toMatchObject({ status: 200, body: { id: 4, error: { code: -32602, message: "Unknown tool: nope" } } });
    const invalid = await post(server.url, request(5, "tools/call", { name: "memo_get_memo", arguments: { memo: 7 } }));
    expect(invalid.status).toBe(200);
    expect(invalid.body.result).toMatchObject({ isError: true, resultType: "complete" });
  });

  it("accepts a Base64 Mcp-Name sentinel and refuses a malformed one", async () => {
    const name = `=?base64?${Buffer.from("memo_get_memo").toString("base64")}?=`;
    const call = request(6, "tools/call", { name: "memo_get_memo", arguments: { memo: "x" } });
    expect((await post(server.url, call, { "mcp-name": name })).status).toBe(200);
    const bad = await post(server.url, call, { "mcp-name": "=?base64?bWVtb!!?=" });
    expect(bad).toMatchObject({ status: 400, body: { id: 6, error: { code: -32020 } } });
    expect(decodeHeaderValue("=?base64?SGVsbG8?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?SGVsbG8=?=")).toBe("Hello");
    expect(decodeHeaderValue("SGVsbG8=")).toBe("SGVsbG8=");
  });

  it("refuses what the revision forbids: batches, initialize under a 2026 header, removed methods, foreign origins", async () => {
    const batch = await post(server.url, [request(7, "tools/list")], { "mcp-method": "tools/list" });
    expect(batch).toMatchObject({ status: 400, body: { error: { code: -32600 } } });
    const initialize = await post(
      server.url,
      {
        jsonrpc: "2.0",
        id: 8,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      },
      { "mcp-method": "initialize" },
    );
    expect(initialize).toMatchObject({ status: 400, body: { id: 8, error: { code: -32020 } } });
    for (const method of ["ping", "logging/setLevel", "resources/list", "subscriptions/listen"]) {
      expect(await post(server.url, request(9, method)), method).toMatchObject({ status: 404, body: { id: 9, error: { code: -32601 } } });
    }
    const foreign = await post(server.url, request(10, "tools/list"), { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    const allowed = await post(server.url, request(11, "tools/list"), { origin: "https://app.example" });
    expect(allowed.status).toBe(200);
  });

  it("accepts a notification with 202 and checks its claim against the header", async () => {
    const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: ENVELOPE } };
    expect(await post(server.url, note)).toEqual({ status: 202, body: {} });
    const mismatched = await post(server.url, note, { "mcp-protocol-version": "2099-01-01" });
    expect(mismatched).toMatchObject({ status: 400, body: { error: { code: -32020 } } });
  });

  it("refuses an MCP-Protocol-Version that names no revision with 400, as an unsupported version", async () => {
    for (const version of ["zzz", "9999", "2026-07-28x"]) {
      const answer = await post(
        server.url,
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
        { "mcp-protocol-version": version },
      );
      expect(answer.status, version).toBe(400);
      expect(JSON.stringify(answer.body), version).toMatch(/Unsupported protocol version/);
      expect(JSON.stringify(answer.body), version).not.toMatch(/_meta/);
    }
  });
});

describe("MCP 2026-07-28 without sessions on a stateful server", () => {
  it("answers a generated server in MCP_SESSIONS=stateful mode without opening a session", async () => {
    const upstream = await startUpstream();
    const server = await startServer({
      identity: serverIdentity,
      tools,
      log: silentLogger,
      environment: testEnvironment(upstream.url, { sessions: { maxSessions: 1, idleMs: 60_000, maxPerClient: 1 } }),
    });
    try {
      for (let id = 1; id <= 3; id++) {
        const { status, body } = await post(server.url, request(id, "tools/list"));
        expect(status).toBe(200);
        expect((body.result as { tools: unknown[] }).tools).toHaveLength(tools.length);
      }
      const health = (await (await fetch(new URL("/health", server.url))).json()) as Record<string, unknown>;
      expect(health.sessions).toBe(0);
    } finally {
      await server.close();
      await upstream.close();
    }
  });

  it("serves the search server's tools over one shared connection to its catalogue", async () => {
    const server = await startSearch(["--memory", "--load", `museum=${MUSEUM}`]);
    try {
      const discover = await post(server.url, request(1, "server/discover"));
      expect(discover.body.result).toMatchObject({ _meta: { "io.modelcontextprotocol/serverInfo": { name: "oapi-mcp-gen-search" } } });
      const calls = await Promise.all(
        [1, 2, 3].map((id) =>
          post(server.url, request(id, "tools/call", { name: "search_endpoints", arguments: { name: "museum", keyword: "tickets" } })),
        ),
      );
      for (const call of calls) {
        const result = call.body.result as { structuredContent: { results: { path: string }[] }; resultType: string };
        expect(result.resultType).toBe("complete");
        expect(result.structuredContent.results.some((hit) => hit.path.includes("ticket"))).toBe(true);
      }
      const wrong = await post(
        server.url,
        request(4, "tools/call", { name: "search_endpoints", arguments: { name: "nope", keyword: "x" } }),
      );
      expect(wrong.body.result).toMatchObject({ isError: true });
      expect(server.handler.sessionCount).toBe(0);
    } finally {
      await server.close();
    }
  });
});
