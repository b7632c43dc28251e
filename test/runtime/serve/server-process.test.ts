import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/free-port.js";
import { ROOT } from "../../helpers/cli.js";
import { startUpstream } from "../../helpers/upstream.js";

const ENTRY = join(ROOT, "dist/generated/server.js");

/** Starts the built generated server (`npm start`) as a process. */
function startProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, [ENTRY], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

describe("the generated server as a process", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await upstream.close();
  });

  it("refuses to start without API_BASE_URL or with bad settings, saying why", async () => {
    const run = startProcess({ PORT: "not-a-port", ALLOWED_ORIGINS: "nope" });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain("memos: API_BASE_URL is required");
    expect(run.stderr()).toContain('memos: PORT: "not-a-port" must be an integer from 0 to 65535');
    expect(run.stderr()).toContain('memos: ALLOWED_ORIGINS: "nope" is not an http(s) origin');
  });

  it("serves /health, logs where it listens, and stops gracefully on SIGTERM", async () => {
    const port = await freePort();
    const run = startProcess({ API_BASE_URL: upstream.url.href, PORT: String(port) });
    const health = new URL(`http://127.0.0.1:${port}/health`);
    let body: unknown;
    // The server listens first and loads its tools after (`/health` says "loading" meanwhile).
    const loading = (value: unknown) => value === undefined || (value as { status?: string }).status === "loading";
    for (let attempt = 0; attempt < 100 && loading(body); attempt++) {
      body = await fetch(health).then(
        (response) => response.json(),
        () => undefined,
      );
      if (loading(body)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(body).toEqual({ status: "ok", server: "memos", tools: 17 });
    // Log lines leave once per turn of the event loop: the line may follow the answer that /health gave in that turn.
    const listening = /"message":"MCP server listening".*"url":"http:\/\/127\.0\.0\.1:\d+\/mcp"/;
    for (let attempt = 0; attempt < 40 && !listening.test(run.stderr()); attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(run.stderr()).toMatch(listening);
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toContain('"signal":"SIGTERM"');
  });
});

describe("shutdown of the generated server", () => {
  it("answers a call in flight on SIGTERM, even one that outlasts the old 10 s cut-off, then exits 0", async () => {
    const slow = await startUpstream((_, res) => {
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ name: "memos/a1", content: "late", state: "NORMAL", visibility: "PRIVATE" }));
      }, 10_500);
    });
    const port = await freePort();
    const run = startProcess({ API_BASE_URL: slow.url.href, PORT: String(port) });
    try {
      for (let attempt = 0; attempt < 100; attempt++) {
        if (
          await fetch(`http://127.0.0.1:${port}/health`).then(
            (r) => r.ok,
            () => false,
          )
        )
          break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const call = fetch(`http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "memo_get_memo", arguments: { memo: "a1" } } }),
      });
      // In flight: the upstream has the call (a fixed pause raced a loaded machine, where the request was not yet read).
      await slow.received(1);
      expect(slow.requests).toHaveLength(1);
      run.child.kill("SIGTERM");
      const response = await call;
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: 7, result: { structuredContent: { content: "late" } } });
      expect(await run.exited).toBe(0);
    } finally {
      run.child.kill("SIGKILL");
      await slow.close();
    }
  }, 30_000);
});

describe("the search server as a process", () => {
  it("serves /health, closes its open sessions and exits 0 on SIGTERM", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(ROOT, "dist/generator/cli/cli.js"), "search", "--memory", "--port", String(port)], {
      env: { PATH: process.env.PATH ?? "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    let body: unknown;
    for (let attempt = 0; attempt < 100 && body === undefined; attempt++) {
      body = await fetch(`${base}/health`).then(
        (response) => response.json(),
        () => undefined,
      );
      if (body === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(body).toMatchObject({ status: "ok", apis: 0, sessions: 0 });
    const opened = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    expect(opened.status).toBe(200);
    await opened.text();
    expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ sessions: 1 });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/"message":"OpenAPI search MCP server listening"/);
    expect(stderr).toContain('"signal":"SIGTERM"');
  });
});
