import { describe, expect, it } from "vitest";
import { callTool, connectClient, MUSEUM, startSearch } from "../helpers/search-server.js";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("search server sessions", () => {
  it("shares loaded documents between sessions", async () => {
    const server = await startSearch(["--memory"]);
    const a = await connectClient(server.url);
    const b = await connectClient(server.url);
    try {
      await callTool(a, "load_openapi", { name: "museum", url: MUSEUM });
      expect((await callTool(b, "list_apis")).structured.count).toBe(1);
      expect(server.handler.sessionCount).toBe(2);
    } finally {
      await a.close();
      await b.close();
      await server.close();
    }
  });

  it("caps sessions: when full, the largest holder's least recently seen session makes room; idle ones are reaped", async () => {
    const server = await startSearch(["--memory", "--max-sessions", "2", "--session-idle-seconds", "3"]);
    const clients = [await connectClient(server.url), await connectClient(server.url)];
    try {
      for (const client of clients) await callTool(client, "list_apis");
      await callTool(clients[1] as (typeof clients)[number], "list_apis");
      const open = () => fetch(server.url, { method: "POST", headers, body: JSON.stringify(initialize) });
      const third = await open();
      // Every session is 127.0.0.1's: its least recently seen one (the first client's) is closed for the new one.
      expect(third.status).toBe(200);
      expect(server.handler.sessionCount).toBe(2);
      expect((await callTool(clients[1] as (typeof clients)[number], "list_apis")).isError).toBe(false);
      await expect(callTool(clients[0] as (typeof clients)[number], "list_apis")).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 3_300));
      expect((await open()).status).toBe(200);
      expect(server.handler.sessionCount).toBe(1);
    } finally {
      for (const client of clients) await client.close().catch(() => {});
      await server.close();
    }
  });

  it("answers an unknown session with 404, a sessionless GET with 400, and a non-initialize first request without leaking", async () => {
    const server = await startSearch(["--memory"]);
    try {
      const unknown = await fetch(server.url, {
        method: "POST",
        headers: { ...headers, "mcp-session-id": "nope" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      expect(unknown.status).toBe(404);
      expect((await fetch(server.url, { method: "GET", headers: { accept: "text/event-stream" } })).status).toBe(400);
      const notInit = await fetch(server.url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
      });
      expect(notInit.status).toBe(400);
      const garbage = await fetch(server.url, { method: "POST", headers, body: "{not json" });
      expect(garbage.status).toBe(400);
      expect(server.handler.sessionCount).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("closes a session on DELETE", async () => {
    const server = await startSearch(["--memory"]);
    try {
      const response = await fetch(server.url, { method: "POST", headers, body: JSON.stringify(initialize) });
      const id = response.headers.get("mcp-session-id") as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const deleted = await fetch(server.url, {
        method: "DELETE",
        headers: { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" },
      });
      expect(deleted.status).toBe(200);
      expect(server.handler.sessionCount).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("applies the Origin and Host checks of generated servers", async () => {
    const server = await startSearch(["--memory", "--allowed-origin", "https://app.example.com"]);
    try {
      const post = (extra: Record<string, string>) =>
        fetch(server.url, { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(initialize) });
      const foreign = await post({ origin: "http://evil.example" });
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Forbidden: Origin not allowed" } });
      expect((await post({ origin: "https://app.example.com" })).status).toBe(200);
      expect((await post({})).status).toBe(200);
      const health = await fetch(new URL("/health", server.url));
      expect(await health.json()).toMatchObject({ status: "ok", apis: 0 });
    } finally {
      await server.close();
    }
  });
});
