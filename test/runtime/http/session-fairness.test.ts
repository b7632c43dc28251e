import { startServer } from "oapi-mcp-gen-runtime";
import { describe, expect, it } from "vitest";
import { serverIdentity, tools } from "../../../generated/index.js";
import { silentLogger } from "../../../runtime/base/logger.js";
import { clientGroup } from "../../../runtime/http/client-group.js";
import { postFrom } from "../../helpers/loopback-post.js";
import { testEnvironment } from "../../helpers/memos-server.js";
import { startSearch } from "../../helpers/search-server.js";

/** One JSON-RPC POST to `/mcp` from a given loopback address, with a session id when given. */
function post(url: URL, from: string, body: unknown, session?: string) {
  return postFrom(url, from, body, session ? { session } : {});
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
};

/** Opens a session from `from` and uses it once (initialized, then tools/list), as red-team repro 03 does. */
async function usedSession(url: URL, from: string): Promise<{ status: number; session?: string }> {
  const opened = await post(url, from, INITIALIZE);
  if (opened.status !== 200 || !opened.session) return opened;
  await post(url, from, { jsonrpc: "2.0", method: "notifications/initialized" }, opened.session);
  const listed = await post(url, from, { jsonrpc: "2.0", id: 2, method: "tools/list" }, opened.session);
  return { status: listed.status, session: opened.session };
}

/** Floods the table from `addresses` (each `perAddress` used sessions), then checks a new client gets in and works. */
async function floodThenJoin(url: URL, addresses: string[], perAddress: number): Promise<void> {
  // The flood's own sessions may displace each other (a client past its cap, or the largest holder, loses its oldest).
  for (const address of addresses) await Promise.all(Array.from({ length: perAddress }, () => usedSession(url, address)));
  const health = (await (await fetch(new URL("/health", url))).json()) as { sessions: number };
  expect(health.sessions).toBeLessThanOrEqual(100);
  const newcomer = await usedSession(url, "127.0.0.222");
  expect(newcomer.status).toBe(200);
  const again = await post(url, "127.0.0.222", { jsonrpc: "2.0", id: 3, method: "tools/list" }, newcomer.session);
  expect(again.status).toBe(200);
  expect(again.text).toContain('"tools"');
}

const range = (from: number, count: number, prefix = "127.0.0.") => Array.from({ length: count }, (_, i) => `${prefix}${from + i}`);

describe("session fairness: a new client always gets in (red-team repro 03)", () => {
  it("groups clients by IPv4 address and IPv6 /64", () => {
    expect(clientGroup("127.0.0.5")).toBe("127.0.0.5");
    expect(clientGroup("::ffff:10.1.2.3")).toBe("10.1.2.3");
    expect(clientGroup("2001:db8::1")).toBe("2001:0db8:0000:0000::/64");
    expect(clientGroup("2001:db8:0:0:ffff:ffff:ffff:fffe")).toBe("2001:0db8:0000:0000::/64");
    expect(clientGroup("2001:db8:0:1::1")).toBe("2001:0db8:0000:0001::/64");
    expect(clientGroup("::1")).toBe("0000:0000:0000:0000::/64");
    expect(clientGroup("64:ff9b::192.0.2.1")).toBe("0064:ff9b:0000:0000::/64");
  });

  it("search server: 11 addresses × 10 used sessions, then 200 addresses × 1, and a newcomer still gets in", async () => {
    const server = await startSearch(["--memory", "--no-files"]);
    try {
      await floodThenJoin(server.url, range(30, 11), 10);
      await floodThenJoin(server.url, range(2, 200, "127.0.1."), 1);
      expect(server.handler.sessionCount).toBeLessThanOrEqual(100);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("generated Memos server (stateful): the same floods, and a newcomer still gets in", async () => {
    const server = await startServer({
      identity: serverIdentity,
      tools,
      log: silentLogger,
      environment: testEnvironment(new URL("http://127.0.0.1:9"), { sessions: { maxSessions: 100, idleMs: 1_800_000, maxPerClient: 10 } }),
    });
    try {
      await floodThenJoin(server.url, range(30, 11), 10);
      await floodThenJoin(server.url, range(2, 200, "127.0.1."), 1);
    } finally {
      await server.close();
    }
  }, 120_000);
});
