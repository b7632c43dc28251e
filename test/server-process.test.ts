import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/prism.js";
import { ROOT } from "./helpers/cli.js";
import { startUpstream } from "./helpers/upstream.js";

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
    for (let attempt = 0; attempt < 100 && body === undefined; attempt++) {
      body = await fetch(health).then(
        (response) => response.json(),
        () => undefined,
      );
      if (body === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(body).toEqual({ status: "ok", server: "memos", tools: 17 });
    expect(run.stderr()).toMatch(/"message":"MCP server listening".*"url":"http:\/\/127\.0\.0\.1:\d+\/mcp"/);
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toContain('"signal":"SIGTERM"');
  });
});
