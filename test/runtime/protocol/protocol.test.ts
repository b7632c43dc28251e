import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import type { RunningServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, startMemosServer } from "../../helpers/memos-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

const CURATED_TOOLS = [
  "memo_list_memos",
  "memo_create_memo",
  "memo_get_memo",
  "memo_update_memo",
  "memo_delete_memo",
  "memo_list_memo_comments",
  "memo_create_memo_comment",
  "memo_list_memo_attachments",
  "memo_set_memo_attachments",
  "memo_list_memo_reactions",
  "memo_upsert_memo_reaction",
  "memo_delete_memo_reaction",
  "memo_list_memo_relations",
  "memo_set_memo_relations",
  "attachment_list_attachments",
  "attachment_get_attachment",
  "attachment_delete_attachment",
];

/** What the fake Memos answers for each list route: `{items, nextPageToken}` like the real gateway. */
const LIST_BODIES: Record<string, unknown> = {
  "/api/v1/memos": { memos: [{ name: "memos/a1", state: "NORMAL", content: "hi", visibility: "PRIVATE" }], nextPageToken: "" },
  "/api/v1/memos/a1/comments": { memos: [], nextPageToken: "" },
  "/api/v1/memos/a1/attachments": { attachments: [], nextPageToken: "" },
  "/api/v1/memos/a1/reactions": { reactions: [], nextPageToken: "" },
  "/api/v1/memos/a1/relations": { relations: [], nextPageToken: "" },
  "/api/v1/attachments": { attachments: [], nextPageToken: "" },
};

describe("generated Memos server over Streamable HTTP", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let client: Client;

  beforeAll(async () => {
    upstream = await startUpstream((request, res) => sendJson(res, 200, LIST_BODIES[request.path] ?? {}));
    server = await startMemosServer(upstream.url);
    client = await connectClient(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await upstream.close();
  });

  it("initializes with the latest protocol and advertises tools only", () => {
    expect(client.getServerVersion()).toMatchObject({ name: "memos", version: "0.1.0" });
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools).toBeDefined();
    expect(capabilities?.prompts).toBeUndefined();
    expect(capabilities?.resources).toBeUndefined();
    expect(LATEST_PROTOCOL_VERSION).toBe("2025-11-25");
  });

  it("lists exactly the 17 curated tools, each with object input and output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(CURATED_TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.inputSchema).not.toHaveProperty("$schema");
      expect(tool.description).toBeTruthy();
      expect(tool.title).toBeTruthy();
      expect(tool._meta).toMatchObject({ method: expect.any(String), path: expect.stringMatching(/^\/api\/v1\//) });
      expect(Object.keys(tool.annotations ?? {}).sort()).toEqual([
        "destructiveHint",
        "idempotentHint",
        "openWorldHint",
        "readOnlyHint",
        "title",
      ]);
    }
  });

  it("returns object structuredContent from every collection tool (the client validates it against outputSchema)", async () => {
    await client.listTools();
    const calls: [string, Record<string, unknown>][] = [
      ["memo_list_memos", {}],
      ["memo_list_memo_comments", { memo: "a1" }],
      ["memo_list_memo_attachments", { memo: "memos/a1" }],
      ["memo_list_memo_reactions", { memo: "a1" }],
      ["memo_list_memo_relations", { memo: "a1" }],
      ["attachment_list_attachments", {}],
    ];
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, name).toBeFalsy();
      expect(result.structuredContent, name).toBeTypeOf("object");
      expect(Array.isArray(result.structuredContent), name).toBe(false);
      expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
    }
  });

  it("turns an empty upstream answer into { ok: true }, and returns {} as {} (as Memos' own server does)", async () => {
    upstream.respondWith((_, res) => {
      res.writeHead(200);
      res.end();
    });
    const result = await client.callTool({ name: "memo_delete_memo", arguments: { memo: "a1" } });
    expect(result.structuredContent).toEqual({ ok: true });
    upstream.respondWith((_, res) => sendJson(res, 200, {}));
    const empty = await client.callTool({ name: "memo_delete_memo", arguments: { memo: "a1" } });
    expect(empty.structuredContent).toEqual({});
    upstream.respondWith((request, res) => sendJson(res, 200, LIST_BODIES[request.path] ?? {}));
  });

  it("answers an unknown tool with JSON-RPC error -32602", async () => {
    await expect(client.callTool({ name: "user_delete_user", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it("refuses a foreign Origin with 403 and a JSON-RPC error without id", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { origin: "http://evil.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(403);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 } });
    expect(body).not.toHaveProperty("id");
  });

  it("accepts its own origin and answers GET/DELETE /mcp with 405", async () => {
    const own = await fetch(server.url, {
      method: "POST",
      headers: { origin: `http://${server.url.host}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(own.status).toBe(200);
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(server.url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  it("serves /health", async () => {
    const response = await fetch(new URL("/health", server.url));
    expect(await response.json()).toEqual({ status: "ok", server: "memos", tools: 17 });
  });
});

describe("DNS-rebinding protection on a loopback-bound server", () => {
  it("refuses a request whose Host is not loopback, even without Origin", async () => {
    const upstream = await startUpstream();
    const server = await startMemosServer(upstream.url);
    try {
      const { request } = await import("node:http");
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(
          server.url,
          { method: "POST", headers: { host: "attacker.example", "content-type": "application/json" } },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
      });
      expect(status).toBe(403);
    } finally {
      await server.close();
      await upstream.close();
    }
  });
});
