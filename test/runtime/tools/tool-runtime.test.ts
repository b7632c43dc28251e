import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../runtime/base/logger.js";
import type { ToolDefinition } from "../../../runtime/base/tool.js";
import type { AuthDefinition, SecuritySchemeDefinition } from "../../../runtime/call/credentials.js";
import { executeTool } from "../../../runtime/tools/call-tool.js";
import { createToolRuntime, type ToolRuntime } from "../../../runtime/tools/tool-runtime.js";

const tool: ToolDefinition = {
  name: "get_item",
  title: "Get item",
  description: "Reads one item.",
  inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  _meta: { method: "GET", path: "/items/{id}" },
  http: { method: "GET", path: "/items/{id}", parameters: [{ argument: "id", name: "id", in: "path", required: true }], response: "json" },
  security: [{ key: [] }],
};

interface SentRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
}

/** A runtime whose upstream is a fake `fetch`: `/token` hands out an OAuth2 token, everything else answers `{ id }`. */
function runtimeWith(scheme: SecuritySchemeDefinition | undefined, env: NodeJS.ProcessEnv = {}) {
  const sent: SentRequest[] = [];
  const lines: { level: string; fields: Record<string, unknown> | undefined }[] = [];
  const fake: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    sent.push({ url, headers: Object.fromEntries(new Headers(init?.headers)), body: String(init?.body ?? "") });
    return url.pathname === "/token" ? Response.json({ access_token: "fetched", expires_in: 3600 }) : Response.json({ id: "a1" });
  };
  const auth: AuthDefinition = { schemes: scheme ? { key: scheme } : {}, passthrough: { authorization: true, headers: [] } };
  const runtime = createToolRuntime({
    identity: { name: "items", version: "1" },
    tools: [tool],
    upstream: { baseUrl: new URL("https://api.example/v1"), timeoutMs: 1_000, maxResponseBytes: 1_000_000, fetch: fake },
    log: {
      info: (_, fields) => lines.push({ level: "info", fields }),
      warn: (_, fields) => lines.push({ level: "warn", fields }),
      error: (_, fields) => lines.push({ level: "error", fields }),
    },
    auth,
    env,
  });
  return { runtime, sent, lines };
}

async function callItem(runtime: ToolRuntime, args: Record<string, unknown> = { id: "a1" }) {
  const validators = await runtime.validators.forTool(tool.name);
  if (!validators) throw new Error("no validators");
  return executeTool({ runtime, tool, validators, args, caller: { authorization: "Bearer caller" } });
}

describe("executing a tool on a tool runtime", () => {
  it("calls the upstream once, answers its JSON and logs one line", async () => {
    const { runtime, sent, lines } = runtimeWith(undefined);
    const result = await callItem(runtime);
    expect(result.structuredContent).toEqual({ id: "a1" });
    expect(sent.map((request) => request.url.href)).toEqual(["https://api.example/v1/items/a1"]);
    expect(sent[0]?.headers.authorization).toBe("Bearer caller");
    expect(lines).toEqual([{ level: "info", fields: expect.objectContaining({ tool: "get_item", outcome: "ok", status: 200 }) }]);
  });

  it("refuses invalid arguments without calling the upstream", async () => {
    const { runtime, sent, lines } = runtimeWith(undefined);
    const result = await callItem(runtime, { id: 1 });
    expect(result.isError).toBe(true);
    expect(sent).toEqual([]);
    expect(lines[0]).toMatchObject({ level: "warn", fields: { outcome: "invalid-arguments" } });
  });

  const cases: { kind: string; scheme: SecuritySchemeDefinition; env: NodeJS.ProcessEnv; header: string; value: string }[] = [
    {
      kind: "an API key header",
      scheme: { type: "apiKey", in: "header", name: "X-Key", env: { apiKey: "KEY" } },
      env: { KEY: "k1" },
      header: "x-key",
      value: "k1",
    },
    {
      kind: "an API key cookie",
      scheme: { type: "apiKey", in: "cookie", name: "key", env: { apiKey: "KEY" } },
      env: { KEY: "k 1" },
      header: "cookie",
      value: "key=k%201",
    },
    {
      kind: "HTTP basic",
      scheme: { type: "http", scheme: "basic", env: { username: "USER", password: "PASS" } },
      env: { USER: "u", PASS: "p" },
      header: "authorization",
      value: `Basic ${Buffer.from("u:p").toString("base64")}`,
    },
    {
      kind: "a bearer token",
      scheme: { type: "http", scheme: "bearer", env: { token: "TOKEN" } },
      env: { TOKEN: "t1" },
      header: "authorization",
      value: "Bearer t1",
    },
    {
      kind: "an OAuth2 client-credentials token",
      scheme: { type: "oauth2", tokenUrl: "https://api.example/token", env: { clientId: "ID", clientSecret: "SECRET" } },
      env: { ID: "client", SECRET: "secret" },
      header: "authorization",
      value: "Bearer fetched",
    },
    {
      kind: "the caller's Authorization when the scheme has no credentials",
      scheme: { type: "http", scheme: "bearer", env: { token: "TOKEN" } },
      env: {},
      header: "authorization",
      value: "Bearer caller",
    },
  ];

  it.each(cases)("sends $kind", async ({ scheme, env, header, value }) => {
    const { runtime, sent } = runtimeWith(scheme, env);
    expect((await callItem(runtime)).isError).toBeUndefined();
    expect(sent.at(-1)?.headers[header]).toBe(value);
  });

  it("puts an API key in the query when the scheme says so", async () => {
    const { runtime, sent } = runtimeWith({ type: "apiKey", in: "query", name: "api_key", env: { apiKey: "KEY" } }, { KEY: "k1" });
    await callItem(runtime);
    expect(sent[0]?.url.search).toBe("?api_key=k1");
  });

  it("fetches an OAuth2 token once with the client's credentials and reuses it", async () => {
    const { runtime, sent } = runtimeWith(
      { type: "oauth2", tokenUrl: "https://api.example/token", env: { clientId: "ID", clientSecret: "SECRET" } },
      { ID: "client", SECRET: "secret" },
    );
    await callItem(runtime);
    await callItem(runtime);
    const tokenRequests = sent.filter((request) => request.url.pathname === "/token");
    expect(tokenRequests).toHaveLength(1);
    expect(tokenRequests[0]?.headers.authorization).toBe(`Basic ${Buffer.from("client:secret").toString("base64")}`);
    expect(tokenRequests[0]?.body).toBe("grant_type=client_credentials");
  });
});

describe("building a tool runtime", () => {
  it("refuses a tool whose schema root is not an object (MCP lists object schemas only)", () => {
    const listed = { ...tool, inputSchema: { type: "array" } };
    expect(() =>
      createToolRuntime({
        identity: { name: "items", version: "1" },
        tools: [listed],
        upstream: { baseUrl: new URL("https://api.example"), timeoutMs: 1_000, maxResponseBytes: 1_000 },
        log: silentLogger,
        env: {},
      }),
    ).toThrow('tool get_item: a schema\'s root must have type "object", not "array"');
  });
});
