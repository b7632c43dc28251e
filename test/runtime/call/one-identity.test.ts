import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Logger, silentLogger } from "../../../runtime/base/logger.js";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import type { AuthDefinition, SecuritySchemeDefinition } from "../../../runtime/call/credentials.js";
import { startServer } from "../../../runtime/serve/serve.js";
import { executeTool } from "../../../runtime/tools/call-tool.js";
import { createToolRuntime } from "../../../runtime/tools/tool-runtime.js";
import { testEnvironment } from "../../helpers/memos-server.js";
import { type RecordedRequest, startUpstream } from "../../helpers/upstream.js";

/** An operation whose document declares the key scheme, and one that declares nothing (under `apply: declared`). */
function operation(name: string, security: ToolDefinition["security"]): ToolDefinition {
  return {
    name,
    title: name,
    description: name,
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    _meta: { method: "GET", path: `/${name}` },
    http: { method: "GET", path: `/${name}`, parameters: [], response: "json" },
    ...(security ? { security } : {}),
  };
}
const SECURED = operation("secured", [{ key: [] }]);
const OPEN = operation("open", undefined);

const KEYS: { where: string; scheme: SecuritySchemeDefinition; sent: (request: RecordedRequest) => string | undefined }[] = [
  {
    where: "query",
    scheme: { type: "apiKey", in: "query", name: "access_token", env: { apiKey: "KEY" } },
    sent: (request) => request.query.get("access_token") ?? undefined,
  },
  {
    where: "header",
    scheme: { type: "apiKey", in: "header", name: "X-Key", env: { apiKey: "KEY" } },
    sent: (request) => request.headers["x-key"] as string | undefined,
  },
  {
    where: "cookie",
    scheme: { type: "apiKey", in: "cookie", name: "session", env: { apiKey: "KEY" } },
    sent: (request) => /session=([^;]+)/.exec(request.headers.cookie ?? "")?.[1],
  },
];

describe("one identity per upstream call: a server-held key or the caller's Authorization, never both", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    upstream = await startUpstream();
  });
  afterAll(() => upstream.close());

  /** Calls `tool` as a caller (with or without its own Authorization) and returns what the upstream received. */
  async function call(scheme: SecuritySchemeDefinition, tool: ToolDefinition, options: { caller?: string; prefer?: "caller" }) {
    const auth: AuthDefinition = {
      schemes: { key: scheme },
      ...(options.prefer ? { prefer: options.prefer } : {}),
      passthrough: { authorization: true, headers: ["X-Key", "X-Tenant"] },
    };
    const runtime = createToolRuntime({
      identity: { name: "identity", version: "1" },
      tools: [SECURED, OPEN],
      upstream: { baseUrl: upstream.url, timeoutMs: 5_000, maxResponseBytes: 1_000_000 },
      log: silentLogger,
      auth,
      env: { KEY: "server-key" },
    });
    const validators = await runtime.validators.forTool(tool.name);
    if (!validators) throw new Error("no validators");
    const headers = { "X-Key": "caller-key", "X-Tenant": "t1" };
    const caller = options.caller ? { authorization: options.caller, headers } : { headers };
    const before = upstream.requests.length;
    const result = await executeTool({ runtime, tool, validators, args: {}, caller });
    expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
    const received = upstream.requests.slice(before);
    expect(received).toHaveLength(1);
    return received[0] as RecordedRequest;
  }

  for (const { where, scheme, sent } of KEYS) {
    it(`a ${where} key: the key alone, whether or not the caller sends its own Authorization`, async () => {
      for (const caller of ["Bearer mcp-caller", undefined]) {
        const received = await call(scheme, SECURED, caller ? { caller } : {});
        expect(sent(received)).toBe("server-key");
        expect(received.headers.authorization).toBeUndefined();
        // The caller's other headers still go; its own copy of a key header never rides beside the server's key.
        expect(received.headers["x-tenant"]).toBe("t1");
        if (where === "header") expect(received.rawHeaders.filter((name) => name.toLowerCase() === "x-key")).toHaveLength(1);
      }
    });

    it(`a ${where} key with auth.prefer: caller: the caller's Authorization alone when it sends one, else the key`, async () => {
      const withCaller = await call(scheme, SECURED, { caller: "Bearer mcp-caller", prefer: "caller" });
      expect(withCaller.headers.authorization).toBe("Bearer mcp-caller");
      expect(sent(withCaller)).toBe(where === "header" ? "caller-key" : undefined);
      const without = await call(scheme, SECURED, { prefer: "caller" });
      expect(sent(without)).toBe("server-key");
      expect(without.headers.authorization).toBeUndefined();
    });
  }

  it("an operation the key does not apply to (apply: declared) carries the caller's Authorization", async () => {
    const received = await call(KEYS[0]?.scheme as SecuritySchemeDefinition, OPEN, { caller: "Bearer mcp-caller" });
    expect(received.headers.authorization).toBe("Bearer mcp-caller");
    expect(received.query.get("access_token")).toBeNull();
  });
});

describe("what the server says at start-up of its server-held credential", () => {
  /** The lines a server logs as it starts with these operations and the key configured. */
  async function startUpLines(tools: ToolDefinition[], apply?: "all") {
    const lines: string[] = [];
    const log: Logger = {
      info: (message) => lines.push(`info: ${message}`),
      warn: (message) => lines.push(`warn: ${message}`),
      error: (message) => lines.push(`error: ${message}`),
    };
    const auth: AuthDefinition = {
      schemes: { key: KEYS[0]?.scheme as SecuritySchemeDefinition },
      ...(apply ? { apply } : {}),
      passthrough: { authorization: true, headers: [] },
    };
    const server = await startServer({
      identity: { name: "identity", version: "1" },
      tools,
      auth,
      env: { KEY: "server-key" },
      log,
      environment: testEnvironment(new URL("http://127.0.0.1:9")),
    });
    await server.close();
    return lines;
  }
  const few = [SECURED, OPEN, operation("open2", undefined), operation("open3", undefined)];

  it("warns when the key goes with under half of the operations, naming auth.apply: all, and says whose credential goes", async () => {
    const lines = await startUpLines(few);
    expect(lines).toContain(
      "warn: the server-held credential goes only with the operations whose document declares its security; set auth.apply: all in the config and generate again to send it with every operation",
    );
    expect(lines).toContain(
      "info: one identity per call: where a server-held credential applies, the caller's Authorization is not forwarded (auth.prefer: caller sends the caller's instead)",
    );
  });

  it("does not warn when the key goes with every operation", async () => {
    expect((await startUpLines([SECURED, operation("secured2", [{ key: [] }])])).filter((line) => line.includes("goes only with"))).toEqual(
      [],
    );
    expect((await startUpLines(few, "all")).filter((line) => line.includes("goes only with"))).toEqual([]);
  });
});

describe("a parameter the server supplies wins wherever its name appears", () => {
  it("drops a field of that name the caller put in an open body (Slack's token beside the server's)", async () => {
    const upstream = await startUpstream();
    try {
      const post: ToolDefinition = {
        ...operation("post_message", undefined),
        inputSchema: {
          type: "object",
          properties: { body: { type: "object", additionalProperties: true } },
          required: ["body"],
          additionalProperties: false,
        },
        http: {
          method: "POST",
          path: "/chat.postMessage",
          parameters: [{ argument: "token", name: "token", in: "header", required: true, source: { env: "SLACK_TOKEN" } }],
          body: { mediaType: "application/json", kind: "json" },
          response: "json",
        },
      };
      const runtime = createToolRuntime({
        identity: { name: "slack", version: "1" },
        tools: [post],
        upstream: { baseUrl: upstream.url, timeoutMs: 5_000, maxResponseBytes: 1_000_000 },
        log: silentLogger,
        env: { SLACK_TOKEN: "xoxb-server" },
      });
      const validators = await runtime.validators.forTool(post.name);
      if (!validators) throw new Error("no validators");
      const args = { body: { channel: "C1", text: "hi", token: "xoxp-model" } };
      const result = await executeTool({ runtime, tool: post, validators, args, caller: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeUndefined();
      const received = upstream.requests.at(-1);
      expect(received?.headers.token).toBe("xoxb-server");
      expect(JSON.parse(received?.body ?? "{}")).toEqual({ channel: "C1", text: "hi" });
    } finally {
      await upstream.close();
    }
  });
});
