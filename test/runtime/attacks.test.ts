import { request as httpRequest } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type RunningServer, silentLogger, startServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth as kitchenAuth, tools as kitchenTools } from "../fixtures/kitchen-sink/generated/index.js";
import { connectClient, startMemosServer, testEnvironment } from "../helpers/memos-server.js";
import { sendJson, startUpstream } from "../helpers/upstream.js";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };

/** A raw POST to /mcp with any headers and body; resolves with the status and text. */
function post(url: URL, body: string, headers: Record<string, string> = HEADERS): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const call = (name: string, args: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

describe("attacks on the generated server", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let client: Client;

  beforeAll(async () => {
    upstream = await startUpstream((request, res) =>
      sendJson(res, 200, { memos: [], nextPageToken: "", name: request.path, content: "x", state: "NORMAL", visibility: "PRIVATE" }),
    );
    server = await startMemosServer(upstream.url, { timeoutMs: 1_000 });
    client = await connectClient(server.url, { Authorization: "Bearer attacker" });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await upstream.close();
  });

  it("path and query injection through arguments: 0 of N requests leave the operation's path template", async () => {
    const payloads = [
      "../users/1",
      "..%2fusers",
      "%2e%2e%2fadmin",
      "/",
      "?admin=true",
      "#frag",
      "a\\b",
      "a\r\nX-Injected: 1",
      "http://evil.example/x",
      "//evil.example/x",
      "x".repeat(10_000),
      "%00",
      "memos/../../users",
      "😀/..",
      ".%2e",
      " ../",
    ];
    let attempts = 0;
    const escapes: string[] = [];
    for (const payload of payloads) {
      for (const [tool, args] of [
        ["memo_get_memo", { memo: payload }],
        ["memo_list_memos", { filter: payload, orderBy: payload }],
      ] as const) {
        attempts++;
        upstream.requests.length = 0;
        await client.callTool({ name: tool, arguments: args });
        const seen = upstream.requests[0];
        if (!seen) continue; // refused before any request: safe
        const pathOk = tool === "memo_list_memos" ? seen.path === "/api/v1/memos" : /^\/api\/v1\/memos\/[^/]+$/.test(seen.path);
        const queryOk =
          tool === "memo_get_memo"
            ? [...seen.query.keys()].length === 0
            : seen.query.get("filter") === payload && [...seen.query.keys()].sort().join() === "filter,orderBy";
        if (!pathOk || !queryOk || seen.headers["x-injected"] !== undefined)
          escapes.push(`${tool} ${JSON.stringify(payload).slice(0, 40)} → ${seen.path}?${seen.query}`);
      }
    }
    expect(`${escapes.length} of ${attempts}`).toBe(`0 of ${attempts}`);
  });

  it("header splitting through header arguments: 0 of N succeed", async () => {
    const kitchen = await startServer({
      identity: { name: "kitchen", version: "1" },
      tools: kitchenTools,
      auth: kitchenAuth,
      env: {},
      log: silentLogger,
      environment: testEnvironment(upstream.url, { timeoutMs: 1000, maxResponseBytes: 1e6, maxRequestBytes: 1e6, maxUploadBytes: 1e6 }),
    });
    const other = await connectClient(kitchen.url);
    try {
      const payloads = ["a\r\nX-Injected: 1", "a\nX-Injected: 1", "a\rX-Injected: 1", "a\u0000b", "a\r\n\r\nGET / HTTP/1.1"];
      let injected = 0;
      for (const payload of payloads) {
        upstream.requests.length = 0;
        const result = await other.callTool({ name: "get_thing_by_id", arguments: { id: "t1", "X-Tenant": payload } });
        expect(result.isError).toBe(true);
        if (upstream.requests.some((r) => r.headers["x-injected"] !== undefined)) injected++;
      }
      expect(`${injected} of ${payloads.length}`).toBe(`0 of ${payloads.length}`);
    } finally {
      await other.close();
      await kitchen.close();
    }
  });

  it("10,000 concurrent tools/calls with 100 bearer tokens: 0 cross-talk", async () => {
    upstream.requests.length = 0;
    const total = 10_000;
    let next = 0;
    const failures: string[] = [];
    const lane = async () => {
      while (next < total) {
        const i = next++;
        const response = await post(server.url, call("memo_get_memo", { memo: `m${i}` }, i), {
          ...HEADERS,
          authorization: `Bearer token-${i % 100}`,
        });
        if (response.status !== 200) failures.push(`${i}: HTTP ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: 200 }, lane));
    expect(failures).toEqual([]);
    const crossTalk = upstream.requests.filter(
      (r) => r.headers.authorization !== `Bearer token-${Number(r.path.slice("/api/v1/memos/m".length)) % 100}`,
    );
    expect(upstream.requests).toHaveLength(total);
    expect(`${crossTalk.length} of ${total}`).toBe(`0 of ${total}`);
  }, 120_000);

  it("Origin and Host matrix: every case answers 403 or passes exactly as specified, never crashes", async () => {
    const own = server.url.host;
    const cases: [Record<string, string>, number][] = [
      [{}, 200],
      [{ origin: `http://${own}` }, 200],
      [{ origin: `http://${own.toUpperCase()}` }, 200],
      [{ origin: `HTTP://${own}` }, 200],
      [{ origin: "http://evil.example" }, 403],
      [{ origin: `http://evil.example:${server.url.port}` }, 403],
      [{ origin: "null" }, 403],
      [{ origin: "not a url" }, 403],
      [{ origin: "http://127.0.0.1" }, 403],
      [{ origin: `https://${own}` }, 200],
      [{ origin: "http://[::1]" }, 403],
      [{ origin: `http://localhost:${server.url.port}`, host: `localhost:${server.url.port}` }, 200],
      [{ host: "evil.example" }, 403],
      [{ host: `evil.example:${server.url.port}`, origin: `http://evil.example:${server.url.port}` }, 403],
      [{ host: `[::1]:${server.url.port}` }, 200],
    ];
    const wrong: string[] = [];
    for (const [extra, expected] of cases) {
      const response = await post(server.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }), { ...HEADERS, ...extra });
      if (response.status !== expected) wrong.push(`${JSON.stringify(extra)} → ${response.status}, expected ${expected}`);
      if (response.status === 403)
        expect(JSON.parse(response.text)).toEqual({
          jsonrpc: "2.0",
          error: { code: -32000, message: expect.stringMatching(/^Forbidden/) },
        });
    }
    expect(`${wrong.length} of ${cases.length}: ${wrong.join("; ")}`).toBe(`0 of ${cases.length}: `);
    expect((await fetch(new URL("/health", server.url))).status).toBe(200);
  });

  it("protocol abuse gets the right 4xx or JSON-RPC error, never an empty 500, never a crash", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const cases: [string, string, Record<string, string>, number, RegExp][] = [
      ["malformed JSON", "{not json", HEADERS, 400, /-32700/],
      ["wrong content type", call("memo_list_memos", {}), { ...HEADERS, "content-type": "text/plain" }, 415, /Content-Type/],
      ["wrong accept", call("memo_list_memos", {}), { ...HEADERS, accept: "text/html" }, 406, /Accept|accept/],
      [
        "oversize body",
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(2 * 1024 * 1024) } }),
        HEADERS,
        413,
        /too large|exceeds|limit/i,
      ],
      ["unknown method", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "no/such" }), HEADERS, 200, /-32601/],
      ["unknown tool", call("nope", {}), HEADERS, 200, /-32602/],
      [
        "arguments not an object",
        JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "memo_list_memos", arguments: [1, 2] } }),
        HEADERS,
        200,
        /-32602.*Invalid tools\/call request.*expected/,
      ],
      [
        "deeply nested arguments",
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memo_list_memos","arguments":{"filter":${deep}}}}`,
        HEADERS,
        200,
        /-32602.*nested deeper than 128 levels/,
      ],
      [
        "arguments nested 200,000 deep",
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memo_create_memo","arguments":{"body":${"[".repeat(200_000)}${"]".repeat(200_000)}}}}`,
        HEADERS,
        200,
        /-32602.*nested deeper than 128 levels/,
      ],
      ["huge argument", call("memo_get_memo", { memo: "x".repeat(500_000) }), HEADERS, 200, /result/],
      ["not JSON-RPC", JSON.stringify({ hello: "world" }), HEADERS, 400, /-32700|-32600/],
      ["empty body", "", HEADERS, 400, /-32700/],
    ];
    const wrong: string[] = [];
    for (const [label, body, headers, status, pattern] of cases) {
      const response = await post(server.url, body, headers);
      if (response.status !== status || !pattern.test(response.text) || response.text === "")
        wrong.push(`${label}: ${response.status} ${response.text.slice(0, 120)}`);
    }
    expect(`${wrong.length} of ${cases.length}: ${wrong.join(" | ")}`).toBe(`0 of ${cases.length}: `);
    expect((await fetch(new URL("/health", server.url))).status).toBe(200);
  });
});

describe("upstream faults", () => {
  it("DNS failure, a slow-drip body, HTML 5xx and a 100 MB 200 end in concise errors within the timeout; the server keeps serving", async () => {
    const faults = await startUpstream((request, res) => {
      if (request.path.endsWith("/drip")) {
        res.writeHead(200, { "content-type": "application/json" });
        const timer = setInterval(() => res.write(" "), 100);
        res.on("close", () => clearInterval(timer));
        return;
      }
      if (request.path.endsWith("/html")) {
        res.writeHead(502, { "content-type": "text/html" });
        return res.end("<html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>");
      }
      if (request.path.endsWith("/huge")) {
        res.writeHead(200, { "content-type": "application/json" });
        let sent = 0;
        const chunk = Buffer.alloc(1024 * 1024, 32);
        const pump = () => {
          while (sent < 100 && res.write(chunk)) sent++;
          if (sent < 100) res.once("drain", pump);
          else res.end();
        };
        return pump();
      }
      sendJson(res, 200, { name: "memos/ok", state: "NORMAL", content: "x", visibility: "PRIVATE" });
    });
    const server = await startMemosServer(faults.url, { timeoutMs: 1_000 });
    const client = await connectClient(server.url);
    const dnsServer = await startMemosServer(new URL("http://no-such-host.invalid"), { timeoutMs: 3_000 });
    const dnsClient = await connectClient(dnsServer.url);
    try {
      const rssBefore = process.memoryUsage().rss;
      const cases: [Client, string, RegExp, number][] = [
        // Generous bounds (noisy machines): the drip never ends, so any bound proves the timeout ended it.
        [dnsClient, "any", /unreachable/, 6_000],
        [client, "drip", /did not answer within 1000 ms/, 4_000],
        [client, "html", /^Upstream API error 502: 502 Bad Gateway nginx$/, 4_000],
        [client, "huge", /larger than the 1048576-byte limit/, 10_000],
      ];
      for (const [who, memo, message, within] of cases) {
        const started = performance.now();
        const result = await who.callTool({ name: "memo_get_memo", arguments: { memo } });
        const text = (result.content as { text: string }[])[0]?.text ?? "";
        expect(result.isError, memo).toBe(true);
        expect(text, memo).toMatch(message);
        expect(text.length, memo).toBeLessThan(300);
        expect(performance.now() - started, memo).toBeLessThan(within);
      }
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(80 * 1024 * 1024);
      expect((await client.callTool({ name: "memo_get_memo", arguments: { memo: "ok" } })).isError).toBeFalsy();
    } finally {
      await client.close();
      await dnsClient.close();
      await server.close();
      await dnsServer.close();
      await faults.close();
    }
  }, 60_000);
});
