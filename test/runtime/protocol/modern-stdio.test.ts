import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/cli.js";
import { MUSEUM } from "../../helpers/search-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "stdio-2026", version: "1.0.0" },
};

/** A process speaking newline-delimited JSON-RPC on stdin/stdout, with each answer matched to its request id. */
function stdioPeer(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const message = JSON.parse(line) as Record<string, unknown>;
    // An answer with a null id (to a line that was no request) goes to whoever waits for id 0.
    waiting.get(message.id === null ? 0 : (message.id as number))?.(message);
  });
  let next = 1;
  return {
    /** Writes a raw line and waits for the answer with a null id. */
    raw(line: string) {
      const answered = new Promise<Record<string, unknown>>((resolve) => waiting.set(0, resolve));
      child.stdin?.write(`${line}\n`);
      return answered;
    },
    request(method: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = ENVELOPE) {
      const id = next++;
      const answered = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
      child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } })}\n`);
      return answered;
    },
    close: () => child.kill(),
  };
}

describe("lines that are no JSON-RPC message, over stdio", () => {
  it.each([
    ["the generated server", ["dist/generated/server.js", "--stdio"], { API_BASE_URL: "http://127.0.0.1:9" }],
    ["the search server", ["dist/generator/cli/cli.js", "search", "--stdio", "--memory"], {}],
  ])("%s answers a non-JSON line with -32700 and a JSON array with -32600, as over HTTP", async (_, args, env) => {
    const peer = stdioPeer(args, env);
    try {
      expect(await peer.raw("this is not json")).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
      const batch = JSON.stringify([{ jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: ENVELOPE } }]);
      expect(await peer.raw(batch)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
      // The session goes on.
      expect(await peer.request("tools/list")).toMatchObject({ result: { tools: expect.any(Array) } });
    } finally {
      peer.close();
    }
  });
});

describe("MCP 2026-07-28 over stdio, beside 2025-11-25", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    upstream = await startUpstream((_, res) => sendJson(res, 200, { name: "memos/a1", content: "hi" }));
  });
  afterAll(async () => {
    await upstream.close();
  });

  it("the generated server answers server/discover, tools/list and tools/call without initialize", async () => {
    const peer = stdioPeer(["dist/generated/server.js", "--stdio"], {
      API_BASE_URL: upstream.url.href,
      UPSTREAM_AUTHORIZATION: "Bearer from-env",
    });
    try {
      const discover = await peer.request("server/discover");
      expect(discover.result).toMatchObject({ supportedVersions: ["2026-07-28"], resultType: "complete", capabilities: { tools: {} } });
      const list = await peer.request("tools/list");
      expect((list.result as { tools: unknown[] }).tools).toHaveLength(17);
      const call = await peer.request("tools/call", { name: "memo_get_memo", arguments: { memo: "memos/a1" } });
      expect(call.result).toMatchObject({ structuredContent: { name: "memos/a1", content: "hi" }, resultType: "complete" });
      expect(upstream.requests.at(-1)).toMatchObject({ path: "/api/v1/memos/a1", headers: { authorization: "Bearer from-env" } });
      const removed = await peer.request("ping");
      expect(removed.error).toMatchObject({ code: -32601 });
      const unsupported = await peer.request("tools/list", {}, { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" });
      expect(unsupported.error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"] } });
      // A 2025 client on the same kind of stream still negotiates as before.
      const initialize = await peer.request(
        "initialize",
        { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "old", version: "1" } },
        {},
      );
      expect(initialize.result).toMatchObject({ protocolVersion: "2025-11-25" });
    } finally {
      peer.close();
    }
  });

  it("the search server answers 2026-07-28 requests over stdio", async () => {
    const peer = stdioPeer(["dist/generator/cli/cli.js", "search", "--stdio", "--memory", "--load", `museum=${MUSEUM}`], {});
    try {
      expect((await peer.request("server/discover")).result).toMatchObject({ supportedVersions: ["2026-07-28"] });
      const call = await peer.request("tools/call", { name: "search_endpoints", arguments: { name: "museum", keyword: "buy tickets" } });
      expect((call.result as { structuredContent: { results: { operationId: string }[] } }).structuredContent.results[0]?.operationId).toBe(
        "buyMuseumTickets",
      );
    } finally {
      peer.close();
    }
  });
});
