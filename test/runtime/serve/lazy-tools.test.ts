import { startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { describe, expect, it } from "vitest";
import { serverIdentity, tools } from "../../../generated/index.js";
import { freePort } from "../../../scripts/free-port.js";
import { testEnvironment } from "../../helpers/memos-server.js";
import { startUpstream } from "../../helpers/upstream.js";

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list" };

describe("a server whose tool modules load after it listens", () => {
  it("answers /health with loading at once, holds MCP requests until the tools are there, then serves them", async () => {
    const upstream = await startUpstream();
    const port = await freePort();
    let release: (loaded: readonly ToolDefinition[]) => void = () => {};
    const loading = new Promise<readonly ToolDefinition[]>((resolve) => {
      release = resolve;
    });
    const started = startServer({ identity: serverIdentity, tools: () => loading, environment: testEnvironment(upstream.url, { port }) });
    const base = `http://127.0.0.1:${port}`;
    try {
      let health: Response | undefined;
      for (let tries = 0; tries < 200 && !health; tries++) {
        health = await fetch(`${base}/health`).catch(() => undefined);
        if (!health) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(health?.status).toBe(200);
      expect(await health?.json()).toEqual({ status: "loading", server: "memos" });
      let answered = false;
      const listed = fetch(`${base}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(LIST),
      }).then(async (response) => {
        answered = true;
        return (await response.json()) as { result: { tools: unknown[] } };
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(answered).toBe(false);
      release(tools);
      expect((await listed).result.tools).toHaveLength(tools.length);
      const server = await started;
      expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ status: "ok", tools: tools.length });
      await server.close();
    } finally {
      release(tools);
      await started.then((server) => server.close()).catch(() => {});
      await upstream.close();
    }
  });

  it("stops listening and rejects when the tools fail to load", async () => {
    const upstream = await startUpstream();
    const port = await freePort();
    const failing = async (): Promise<readonly ToolDefinition[]> => {
      throw new Error("tool modules are broken");
    };
    try {
      await expect(
        startServer({ identity: serverIdentity, tools: failing, environment: testEnvironment(upstream.url, { port }) }),
      ).rejects.toThrow("tool modules are broken");
      await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    } finally {
      await upstream.close();
    }
  });
});
