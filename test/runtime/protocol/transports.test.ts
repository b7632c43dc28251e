import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { silentLogger, startServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverIdentity, tools } from "../../../generated/index.js";
import { quietClient } from "../../../scripts/mcp-client.js";
import { ROOT } from "../../helpers/cli.js";
import { connectClient, testEnvironment } from "../../helpers/memos-server.js";
import { MUSEUM } from "../../helpers/search-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

const MEMO = { name: "memos/a1", state: "NORMAL", content: "hi", visibility: "PRIVATE" };

/** An SDK client that launches a process and speaks MCP over its stdin and stdout. */
async function stdioClient(args: string[], env: Record<string, string>): Promise<Client> {
  const client = quietClient("stdio-test");
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      env: { PATH: process.env.PATH ?? "", ...env },
      stderr: "ignore",
      cwd: ROOT,
    }),
  );
  return client;
}

describe("transports and session modes", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    upstream = await startUpstream((_, res) => sendJson(res, 200, MEMO));
  });
  afterAll(async () => {
    await upstream.close();
  });

  it("runs the generated server over stdio with the upstream Authorization from the environment", async () => {
    const client = await stdioClient(["dist/generated/server.js", "--stdio"], {
      API_BASE_URL: upstream.url.href,
      UPSTREAM_AUTHORIZATION: "Bearer from-env",
    });
    try {
      expect((await client.listTools()).tools).toHaveLength(17);
      const result = await client.callTool({ name: "memo_get_memo", arguments: { memo: "memos/a1" } });
      expect(result.structuredContent).toEqual(MEMO);
      expect(upstream.requests.at(-1)).toMatchObject({ path: "/api/v1/memos/a1", headers: { authorization: "Bearer from-env" } });
    } finally {
      await client.close();
    }
  });

  it("runs the search server over stdio", async () => {
    const client = await stdioClient(["dist/generator/cli/cli.js", "search", "--stdio", "--memory", "--load", `museum=${MUSEUM}`], {});
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("search_endpoints");
      const result = await client.callTool({ name: "search_endpoints", arguments: { name: "museum", keyword: "buy tickets" } });
      expect((result.structuredContent as { results: { operationId: string }[] }).results[0]?.operationId).toBe("buyMuseumTickets");
    } finally {
      await client.close();
    }
  });

  it("keeps SDK sessions when stateful, each request carrying its own caller's credentials", async () => {
    const server = await startServer({
      identity: serverIdentity,
      tools,
      log: silentLogger,
      environment: testEnvironment(upstream.url, {
        timeoutMs: 5000,
        maxResponseBytes: 1e6,
        maxRequestBytes: 1e6,
        maxUploadBytes: 1e6,
        sessions: { maxSessions: 4, idleMs: 60_000, maxPerClient: 10 },
      }),
    });
    const alice = await connectClient(server.url, { Authorization: "Bearer alice" });
    const bob = await connectClient(server.url, { Authorization: "Bearer bob" });
    try {
      for (const [client, token] of [
        [alice, "alice"],
        [bob, "bob"],
        [alice, "alice"],
      ] as const) {
        await client.callTool({ name: "memo_get_memo", arguments: { memo: "a1" } });
        expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token}`);
      }
      const health = await (await fetch(new URL("/health", server.url))).json();
      expect(health).toMatchObject({ status: "ok", server: "memos", tools: 17, sessions: 2 });
      const get = await fetch(server.url, { method: "GET" });
      expect(get.status).toBe(400);
    } finally {
      await alice.close();
      await bob.close();
      await server.close();
    }
  });
});
