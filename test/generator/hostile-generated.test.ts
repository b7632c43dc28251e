import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { hostAllowList, type RunningServer, silentLogger, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFromFile } from "../../generator/generate.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { writeAndTypecheck } from "../helpers/generated-tree.js";
import { connectClient, testEnvironment } from "../helpers/memos-server.js";
import { sendJson, startUpstream } from "../helpers/upstream.js";

const OUT = join(ROOT, ".tmp/hostile-generated");

/** Every `Object.prototype` member a document might use as a name. */
const MEMBERS = ["constructor", "toString", "valueOf", "hasOwnProperty", "isPrototypeOf", "__proto__"];

/** A document whose names are prototype members, with an exponential pattern, a deep literal and a non-ASCII path. */
function prototypeDocument(): Record<string, unknown> {
  let deep: unknown = { leaf: true };
  for (let depth = 0; depth < 200; depth++) deep = { nested: deep };
  const body = {
    type: "object",
    required: ["constructor"],
    properties: Object.fromEntries(MEMBERS.filter((name) => name !== "__proto__").map((name) => [name, { type: "string" }])),
  };
  const result = {
    type: "object",
    properties: { constructor: { type: "string" }, toString: { type: "string" } },
    required: ["constructor"],
  };
  const ok = { "200": { description: "ok", content: { "application/json": { schema: result, example: deep } } } };
  return {
    openapi: "3.0.3",
    info: { title: "Prototype", version: "1" },
    paths: {
      "/ünï cöde/{constructor}": {
        get: {
          operationId: "constructor",
          "x-deep": deep,
          parameters: [
            { name: "constructor", in: "path", required: true, schema: { type: "string" } },
            { name: "toString", in: "query", schema: { type: "string", pattern: "^(a+)+$" } },
            { name: "valueOf", in: "header", schema: { type: "string", default: "v", examples: [deep] } },
          ],
          responses: ok,
        },
      },
      "/things": {
        post: {
          operationId: "toString",
          requestBody: { required: true, content: { "application/json": { schema: body } } },
          responses: ok,
        },
        put: { operationId: "valueOf", responses: ok },
        patch: { operationId: "hasOwnProperty", responses: ok },
        delete: { operationId: "__proto__", responses: ok },
      },
      "/text": {
        get: {
          operationId: "getText",
          responses: { "200": { description: "text", content: { "text/plain": { schema: { type: "string" } } } } },
        },
      },
    },
  };
}

describe("a document of prototype-member names, exponential patterns and deep literals", () => {
  let server: RunningServer | undefined;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let client: Client;

  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    const spec = join(OUT, "prototype.json");
    await writeFile(spec, JSON.stringify(prototypeDocument()));
    const result = await generateFromFile(spec, { server: { name: "prototype" }, select: { all: true } });
    expect(result.tools.map((tool) => tool.name).sort()).toEqual(
      ["constructor", "get_text", "has_own_property", "proto", "to_string", "value_of"].sort(),
    );
    expect(await writeAndTypecheck(OUT, result.files)).toBe("");
    const generated = (await import(/* @vite-ignore */ join(OUT, "generated/index.ts"))) as { tools: readonly ToolDefinition[] };
    upstream = await startUpstream((request, res) => {
      if (request.path === "/text") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("\u0001".repeat(10 * 1024 * 1024 - 1));
      } else if (request.path === "/things" && request.method === "PUT") {
        res.writeHead(500, { "content-type": "text/html" });
        res.end("<".repeat(64 * 1024));
      } else sendJson(res, 200, { constructor: "made", toString: "shown" });
    });
    server = await startServer({
      identity: { name: "prototype", version: "1" },
      tools: generated.tools,
      log: silentLogger,
      environment: testEnvironment(upstream.url, {
        timeoutMs: 5000,
        maxResponseBytes: 16 * 1024 * 1024,
        maxRequestBytes: 1e6,
        maxUploadBytes: 1e6,
      }),
    });
    client = await connectClient(server.url);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await upstream?.close();
    await rm(OUT, { recursive: true, force: true });
  });

  const call = (name: string, args: Record<string, unknown>) =>
    client.request({ method: "tools/call", params: { name, arguments: args } }, CallToolResultSchema);

  it("validates own members only: a body property named constructor is data, and so is a result's", async () => {
    const result = await call("to_string", {
      body: { constructor: "c", valueOf: "v", hasOwnProperty: "h", isPrototypeOf: "i", toString: "t" },
    });
    expect(result.isError).toBeFalsy();
    // A result with a `constructor` key travels wrapped (SDK clients' zod records refuse such an object at the top).
    expect(result.structuredContent).toEqual({ result: { constructor: "made", toString: "shown" } });
    expect(JSON.parse(upstream.requests.at(-1)?.body ?? "")).toEqual({
      constructor: "c",
      valueOf: "v",
      hasOwnProperty: "h",
      isPrototypeOf: "i",
      toString: "t",
    });
    const missing = await call("to_string", { body: {} });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain("must have required property 'constructor'");
  });

  it("encodes a non-ASCII, spaced path template and its arguments instead of calling them dot segments", async () => {
    const result = await call("constructor", { path_constructor: "a b/ü" });
    expect(result.isError).toBeFalsy();
    expect(upstream.requests.at(-1)?.path).toBe("/%C3%BCn%C3%AF%20c%C3%B6de/a%20b%2F%C3%BC");
    // An argument left out is absent, even when its name is an Object.prototype member (toString, valueOf).
    expect(upstream.requests.at(-1)?.search).toBe("");
    expect(JSON.stringify(upstream.requests.at(-1)?.headers)).not.toContain("native code");
    const dots = await call("constructor", { path_constructor: ".." });
    expect(JSON.stringify(dots.content)).toContain('path arguments must not be \\".\\" or \\"..\\"');
  });

  it("matches a document's exponential pattern in linear time", async () => {
    const started = performance.now();
    const result = await call("constructor", { path_constructor: "x", toString: `${"a".repeat(40)}b` });
    // Backtracking would take 2^40 steps: hours, not the seconds a loaded machine may add.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("must match the pattern ^(a+)+$");
    expect((await call("constructor", { path_constructor: "x", toString: "a".repeat(40) })).isError).toBeFalsy();
  });

  it("cleans a 64 KiB error body of '<' quickly, and bounds a 10 MiB text body of control characters", async () => {
    let started = performance.now();
    const failed = await call("value_of", {});
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(failed.isError).toBe(true);
    started = performance.now();
    const text = await call("get_text", {});
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(text.isError).toBeFalsy();
    expect(JSON.stringify(text).length).toBeLessThan(1024 * 1024);
    expect(text.structuredContent).toMatchObject({
      truncated: true,
      result: expect.stringMatching(/^\ufffd+… \[truncated: \d+ characters in all\]$/),
    });
  });
});

describe("documents that used to crash the generator end in one line naming the place", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    [
      "circular parameter",
      {
        paths: {
          "/a": {
            get: { operationId: "getA", parameters: [{ $ref: "#/components/parameters/P1" }], responses: { "200": { description: "ok" } } },
          },
        },
        components: { parameters: { P1: { $ref: "#/components/parameters/P2" }, P2: { $ref: "#/components/parameters/P1" } } },
      },
      /^error: GET \/a: circular \$ref chain at #\/components\/parameters\/P1$/,
    ],
    [
      "circular path items",
      { paths: { "/b": { $ref: "#/paths/~1c" }, "/c": { $ref: "#/paths/~1b" } } },
      /^error: paths\.\/b: circular \$ref chain at #\/paths\/~1c$/,
    ],
    [
      "circular request body",
      {
        paths: {
          "/a": {
            post: {
              operationId: "postA",
              requestBody: { $ref: "#/components/requestBodies/B" },
              responses: { "200": { description: "ok" } },
            },
          },
        },
        components: { requestBodies: { B: { $ref: "#/components/requestBodies/B" } } },
      },
      /^error: postA: circular \$ref chain at #\/components\/requestBodies\/B$/,
    ],
    [
      "dangling response",
      { paths: { "/a": { get: { operationId: "getA", responses: { "200": { $ref: "#/components/responses/Nope" } } } } } },
      /^error: getA: unresolvable \$ref #\/components\/responses\/Nope$/,
    ],
    [
      "deep enum",
      {
        paths: {
          "/a": {
            get: {
              operationId: "getA",
              parameters: [
                { name: "q", in: "query", schema: { type: "object", enum: [JSON.parse(`${"[".repeat(60)}${"]".repeat(60)}`)] } },
              ],
              responses: { "200": { description: "ok" } },
            },
          },
        },
      },
      /^error: getA: enum value nested deeper than 32 levels at /,
    ],
    [
      "nesting past the document limit",
      { paths: { "/a": { get: { operationId: "getA", "x-deep": JSON.parse(`${"[".repeat(450)}${"]".repeat(450)}`), responses: {} } } } },
      /^error: .*nested deeper than 400 levels at \/paths\/~1a|\/paths\/\/a/,
    ],
  ];

  for (const [name, parts, expected] of cases) {
    it(name, async () => {
      await mkdir(OUT, { recursive: true });
      const spec = join(OUT, `${name.replace(/\W+/g, "-")}.json`);
      await writeFile(spec, JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1" }, ...parts }));
      const run = runCli([spec, "--out", join(OUT, "out"), "--quiet"]);
      expect(run.status).toBe(1);
      const lines = run.stderr
        .trim()
        .split("\n")
        .filter((line) => !line.startsWith("note:"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(expected);
    });
  }

  it("refuses YAML whose aliases expand past the size bound, quickly and in one line", async () => {
    await mkdir(OUT, { recursive: true });
    const spec = join(OUT, "aliases.yaml");
    const big = Array.from({ length: 2_000 }, (_, i) => `k${i}`).join(", ");
    const aliases = Array.from({ length: 900 }, () => "*big").join(", ");
    await writeFile(spec, `openapi: 3.0.3\ninfo: {title: t, version: "1"}\nx-big: &big [${big}]\nx-all: [${aliases}]\npaths: {}\n`);
    const started = performance.now();
    const run = runCli([spec, "--out", join(OUT, "out"), "--quiet"]);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^error: .*YAML aliases expand the document past 1000000 values/),
    ]);
  });

  it("shows document text in warnings without terminal escape codes", async () => {
    await mkdir(OUT, { recursive: true });
    const spec = join(OUT, "escape.json");
    const deep = JSON.parse(`${"[".repeat(40)}${"]".repeat(40)}`);
    await writeFile(
      spec,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        paths: {
          "/a": {
            get: {
              operationId: "get\u001b[2J\u001b]0;pwned\u0007A",
              parameters: [{ name: "q", in: "query", schema: { type: "string", default: deep } }],
              responses: {},
            },
          },
        },
      }),
    );
    const run = runCli([spec, "--out", join(OUT, "escape-out"), "--quiet"]);
    expect(run.stderr).toContain("dropped default nested deeper than 32 levels");
    expect(run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });

  it("keeps the server URL and paths from adding links or cells to the generated README", async () => {
    await mkdir(OUT, { recursive: true });
    const spec = join(OUT, "readme.json");
    await writeFile(
      spec,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        servers: [{ url: "https://api.example.com/v1|[Click here](https://evil.example)|" }],
        paths: { "/a|[x](https://evil.example)|": { get: { operationId: "getA", responses: {} } } },
      }),
    );
    const run = runCli([spec, "--out", join(OUT, "readme-out"), "--quiet"]);
    expect(run.status).toBe(0);
    const readme = await readFile(join(OUT, "readme-out", "README.md"), "utf8");
    const rows = readme.split("\n").filter((text) => text.startsWith("|") && text.includes("evil.example"));
    expect(rows).toHaveLength(2);
    for (const line of rows) {
      // In a table row, only unescaped pipes split cells: the row keeps its own number of cells.
      const cells = line.replace(/\\\|/g, "").split("|").length;
      expect(cells, line).toBe(5);
    }
  });
});

describe("Host checks and request limits", () => {
  it("turns the DNS-rebinding Host check on for loopback however spelt, and for any bind address with PUBLIC_URL", async () => {
    expect(await hostAllowList("127.1", undefined)).toEqual(new Set());
    expect(await hostAllowList("localhost", undefined)).toEqual(new Set());
    expect(await hostAllowList("0.0.0.0", new URL("https://mcp.example.com"))).toEqual(new Set(["mcp.example.com"]));
    expect(await hostAllowList("0.0.0.0", undefined)).toBeUndefined();
    const upstream = await startUpstream();
    const server = await startServer({
      identity: { name: "host", version: "1" },
      tools: [],
      log: silentLogger,
      environment: testEnvironment(upstream.url, { host: "127.1" }),
    });
    try {
      // fetch cannot set Host: a plain request can, as a rebinding attacker's page effectively does.
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          server.url,
          { method: "POST", headers: { host: "evil.example", "content-type": "application/json" } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end("{}");
      });
      expect(status).toBe(403);
    } finally {
      await server.close();
      await upstream.close();
    }
  });

  it("applies MAX_REQUEST_BYTES in stateful mode too", async () => {
    const upstream = await startUpstream();
    const server = await startServer({
      identity: { name: "limits", version: "1" },
      tools: [],
      log: silentLogger,
      environment: testEnvironment(upstream.url, {
        maxRequestBytes: 2_000,
        sessions: { maxSessions: 10, idleMs: 60_000, maxPerClient: 10 },
      }),
    });
    try {
      const response = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { padding: "x".repeat(4_000) } }),
      });
      expect(response.status).toBe(413);
    } finally {
      await server.close();
      await upstream.close();
    }
  });
});
