import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools as memosTools, serverIdentity } from "../../generated/index.js";
import { silentLogger } from "../../runtime/base/logger.js";
import type { RunningServer } from "../../runtime/http/http-server.js";
import { readServerEnvironment } from "../../runtime/serve/env.js";
import { startServer } from "../../runtime/serve/serve.js";
import { freePort } from "../../scripts/free-port.js";
import { startAuthorizationServer } from "../helpers/authorization-server.js";
import { launchChromium } from "../helpers/chromium.js";
import { sendJson, startUpstream } from "../helpers/upstream.js";

/** A page's origin: a blank page served on a loopback port of its own. */
async function pageServer(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_, res) => {
    res.setHeader("content-type", "text/html");
    res.end("<!doctype html><title>client</title>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "browser", version: "1" } },
};

let browser: Browser;
let allowed: Awaited<ReturnType<typeof pageServer>>;
let foreign: Awaited<ReturnType<typeof pageServer>>;
let upstream: Awaited<ReturnType<typeof startUpstream>>;
let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>;
const servers: RunningServer[] = [];

/** The committed Memos server with these variables, letting the allowed page's origin in. */
async function memos(variables: Record<string, string>, port?: number): Promise<RunningServer> {
  const at = port ?? (await freePort());
  const environment = readServerEnvironment({
    HOST: "127.0.0.1",
    PORT: String(at),
    API_BASE_URL: upstream.url.href,
    ALLOWED_ORIGINS: allowed.origin,
    ...variables,
  });
  const server = await startServer({ identity: serverIdentity, tools: memosTools, environment, log: silentLogger });
  servers.push(server);
  return server;
}

/** What a page's `fetch` of `/mcp` came to: the status and the headers and body it may read, or the error it met. */
async function fetchFrom(page: string, url: URL, init: { method: string; headers: Record<string, string>; body?: string }) {
  const tab = await browser.newPage();
  try {
    await tab.goto(page, { waitUntil: "load" });
    return await tab.evaluate(
      async (target, request) => {
        try {
          const response = await fetch(target, request);
          return {
            status: response.status,
            challenge: response.headers.get("www-authenticate"),
            session: response.headers.get("mcp-session-id"),
            body: await response.text(),
          };
        } catch (error) {
          return { error: String(error) };
        }
      },
      url.href,
      init,
    );
  } finally {
    await tab.close();
  }
}

beforeAll(async () => {
  [allowed, foreign] = [await pageServer(), await pageServer()];
  upstream = await startUpstream((_, res) => sendJson(res, 200, { memos: [], nextPageToken: "" }));
  authorizationServer = await startAuthorizationServer();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  for (const page of [allowed, foreign]) page?.server.close();
  await upstream?.close();
  await authorizationServer?.close();
});

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  body: JSON.stringify(body),
});

describe("a browser client on another origin, in headless Chromium", () => {
  it("an allowed origin calls /mcp (preflight and all) and reads the answer; a foreign one is refused before anything runs", async () => {
    const server = await memos({});
    const opened = await fetchFrom(allowed.origin, server.url, post(INITIALIZE, { "mcp-protocol-version": "2025-11-25" }));
    expect(opened).toMatchObject({ status: 200 });
    expect(JSON.parse((opened as { body: string }).body).result.serverInfo.name).toBe(serverIdentity.name);
    const before = upstream.requests.length;
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memo_list_memos", arguments: {} } };
    const called = await fetchFrom(allowed.origin, server.url, post(call, { authorization: "Bearer user-token" }));
    expect(called).toMatchObject({ status: 200 });
    expect(upstream.requests.length).toBe(before + 1);
    expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer user-token");
    const refused = await fetchFrom(foreign.origin, server.url, post(call, { authorization: "Bearer user-token" }));
    expect(refused).toMatchObject({ error: expect.stringContaining("Failed to fetch") });
    expect(upstream.requests.length).toBe(before + 1);
  });

  it("stateful: the page reads its session id and goes on in that session", async () => {
    const server = await memos({ MCP_SESSIONS: "stateful" });
    const opened = await fetchFrom(allowed.origin, server.url, post(INITIALIZE));
    expect(opened).toMatchObject({ status: 200 });
    const session = (opened as { session: string | null }).session ?? "";
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const listed = await fetchFrom(
      allowed.origin,
      server.url,
      post(
        { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
        { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      ),
    );
    expect(listed).toMatchObject({ status: 200, body: expect.stringContaining("memo_list_memos") });
  });

  it("resource mode: the preflight needs no token, and the page reads the 401's challenge to find where to sign in", async () => {
    const port = await freePort();
    const server = await memos(
      { AUTH_MODE: "resource", AUTH_ISSUER: authorizationServer.issuer.href, PUBLIC_URL: `http://127.0.0.1:${port}` },
      port,
    );
    const refused = await fetchFrom(allowed.origin, server.url, post(INITIALIZE));
    expect(refused).toMatchObject({ status: 401 });
    expect((refused as { challenge: string | null }).challenge).toContain(
      `resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});
