import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { createLogger, readServerEnvironment, startServer } from "oapi-mcp-gen-runtime";
import { describe, expect, it } from "vitest";
import { auth, serverIdentity, tools } from "../../fixtures/kitchen-sink/generated/index.js";
import { connectClient, startMemosServer, testEnvironment } from "../../helpers/memos-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

/** A logger that keeps its lines, parsed. */
function recordingLogger(level: "debug" | "info" | "warn" = "info") {
  const lines: string[] = [];
  return {
    lines,
    log: createLogger(level, "json", { write: (text: string) => lines.push(text) }),
    parsed: () => lines.map((line) => JSON.parse(line)),
  };
}

describe("operations log", () => {
  it("writes one line per tool call with tool, upstream method, status and duration; failures at warn with their reason", async () => {
    const upstream = await startUpstream((request, res) => {
      if (request.path.endsWith("/memos/slow")) setTimeout(() => sendJson(res, 200, {}), 1_500);
      else if (request.path.endsWith("/memos/busy")) {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "7" });
        res.end('{"message":"slow down"}');
      } else if (request.path.endsWith("/memos/down")) {
        res.writeHead(503, { "retry-after": new Date(Date.now() + 60_000).toUTCString() });
        res.end("maintenance");
      } else if (request.path.endsWith("/memos/boom")) sendJson(res, 500, { message: "kaput" });
      else sendJson(res, 200, {});
    });
    const recorder = recordingLogger();
    const server = await startMemosServer(upstream.url, { timeoutMs: 500, log: recorder.log });
    const client = await connectClient(server.url);
    try {
      const results = new Map<string, { isError?: boolean; content: unknown }>();
      for (const memo of ["ok", "slow", "busy", "down", "boom"]) {
        results.set(
          memo,
          (await client.callTool({ name: "memo_delete_memo", arguments: { memo } })) as { isError?: boolean; content: unknown },
        );
      }
      await client.callTool({ name: "memo_delete_memo", arguments: {} });
      const calls = recorder.parsed().filter((line) => line.message === "tool call");
      expect(calls).toHaveLength(6);
      for (const call of calls) {
        expect(call).toMatchObject({ tool: "memo_delete_memo", method: "DELETE", path: "/api/v1/memos/{memo}" });
        expect(typeof call.durationMs).toBe("number");
      }
      expect(calls.map((call) => [call.level, call.outcome, call.status])).toEqual([
        ["info", "ok", 200],
        ["warn", "timeout", undefined],
        ["warn", "upstream-error", 429],
        ["warn", "upstream-error", 503],
        ["warn", "upstream-error", 500],
        ["warn", "invalid-arguments", undefined],
      ]);
      expect(calls[1].reason).toMatch(/did not answer within 500 ms/);
      expect(JSON.stringify(results.get("busy")?.content)).toContain("Rate limited (429): slow down. Retry after 7 seconds.");
      expect(JSON.stringify(results.get("down")?.content)).toMatch(/Unavailable \(503\): maintenance\. Retry after (59|60) seconds/);
    } finally {
      await client.close();
      await server.close();
      await upstream.close();
    }
  });

  it("warns at start-up when server-held credentials serve every caller of the unauthenticated /mcp", async () => {
    const recorder = recordingLogger();
    const server = await startServer({
      identity: serverIdentity,
      tools,
      auth,
      env: { BEARER_AUTH_TOKEN: "server-secret" },
      log: recorder.log,
      environment: testEnvironment(new URL("http://127.0.0.1:9/v1")),
    });
    await server.close();
    const warning = recorder.parsed().find((line) => line.level === "warn" && String(line.message).startsWith("server-held credentials"));
    expect(warning?.message).toMatch(/^server-held credentials serve every caller of \/mcp, which has no authentication of its own/);
    expect(warning?.credentials).toEqual(["bearerAuth"]);
  });

  it("says when a variable set would never be sent: a scheme no operation declares, UPSTREAM_AUTHORIZATION in HTTP passthrough", async () => {
    const recorder = recordingLogger();
    const server = await startServer({
      identity: serverIdentity,
      tools,
      auth: { ...auth, undeclared: { keyAuth: ["KEY_AUTH_API_KEY"] } },
      env: { KEY_AUTH_API_KEY: "k" },
      log: recorder.log,
      environment: testEnvironment(new URL("http://127.0.0.1:9/v1"), { upstreamAuthorization: "Bearer operator" }),
    });
    await server.close();
    const warnings = recorder
      .parsed()
      .filter((line) => line.level === "warn")
      .map((line) => String(line.message));
    expect(warnings).toContain(
      "KEY_AUTH_API_KEY is set, but no operation of this server declares keyAuth, so it is never sent; set auth.apply: all in the config and generate again to send it with every operation",
    );
    expect(warnings.some((line) => line.startsWith("UPSTREAM_AUTHORIZATION is set but not sent: over HTTP in passthrough"))).toBe(true);
  });

  it("forwards no caller credentials when the upstream URL comes from the document alone", async () => {
    expect(readServerEnvironment({}, { defaultBaseUrl: "https://api.example.com" }).upstreamConfigured).toBe(false);
    expect(readServerEnvironment({}, { defaultBaseUrl: "https://api.example.com", fromConfig: true }).upstreamConfigured).toBe(true);
    expect(readServerEnvironment({ API_BASE_URL: "https://x.example.com" }, {}).upstreamConfigured).toBe(true);
    const upstream = await startUpstream();
    const recorder = recordingLogger();
    const server = await startServer({
      identity: serverIdentity,
      tools,
      auth,
      log: recorder.log,
      environment: testEnvironment(upstream.url, { upstreamConfigured: false }),
    });
    const client = await connectClient(server.url, { Authorization: "Bearer caller" });
    try {
      await client.request({ method: "tools/call", params: { name: "get_thing_by_id", arguments: { id: "t1" } } }, CallToolResultSchema);
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]?.headers.authorization).toBeUndefined();
      expect(recorder.parsed().some((line) => /^caller credentials are not forwarded/.test(line.message))).toBe(true);
    } finally {
      await client.close();
      await server.close();
      await upstream.close();
    }
  });

  it("warns once when credentials would go to a plain-http upstream beyond loopback, and not for https or loopback", async () => {
    const warnings = async (apiBaseUrl: string, passthrough = true) => {
      const recorder = recordingLogger("warn");
      const server = await startServer({
        identity: serverIdentity,
        tools,
        auth: { ...auth, passthrough: { authorization: passthrough, headers: [] } },
        log: recorder.log,
        env: {},
        environment: testEnvironment(new URL(apiBaseUrl)),
      });
      await server.close();
      return recorder.parsed().filter((line) => /in clear text/.test(line.message));
    };
    expect(await warnings("http://api.internal.example:8080/v1")).toEqual([
      expect.objectContaining({ upstream: "http://api.internal.example:8080" }),
    ]);
    expect(await warnings("http://api.internal.example:8080/v1", false)).toEqual([]);
    expect(await warnings("https://api.example.com/v1")).toEqual([]);
    expect(await warnings("http://127.0.0.1:9/v1")).toEqual([]);
    expect(await warnings("http://[::1]:9/v1")).toEqual([]);
  });

  it("LOG_LEVEL keeps its level and above; LOG_FORMAT=text writes one readable line, control characters escaped", () => {
    const lines: string[] = [];
    const log = createLogger("warn", "text", { write: (text: string) => lines.push(text) });
    log.info("hidden", {});
    log.warn("tool call", { tool: "t", reason: "bad\u001b[31m value" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z WARN tool call tool=t reason="bad\\u001b\[31m value"\n$/);
  });
});
