import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { type RunningServer, silentLogger, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseConfig } from "../../generator/config/index.js";
import { generateFromFile } from "../../generator/generate.js";
import { readDocumentFile } from "../../openapi/document/index.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { clientLimitProblems } from "../helpers/client-limits.js";
import { writeAndTypecheck } from "../helpers/generated-tree.js";
import { connectClient, testEnvironment } from "../helpers/memos-server.js";
import { startUpstream } from "../helpers/upstream.js";

/** Text that breaks out of comments, strings and templates, and names that poison prototypes. */
const PAYLOADS = [
  "*/ globalThis.__oapiCanary = 'comment'; /*",
  "/* open comment",
  "`; globalThis.__oapiCanary = 'template'; `",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is a template placeholder on purpose.
  "${globalThis.__oapiCanary = 'interpolation'}",
  "</script><script>globalThis.__oapiCanary = 'script'</script>",
  '"; globalThis.__oapiCanary = "double"; "',
  "'; globalThis.__oapiCanary = 'single'; '",
  '\\"); globalThis.__oapiCanary = "backslash"; //',
  "\u2028globalThis.__oapiCanary = 'line separator';\u2029",
  "nul\u0000byte",
  "__proto__",
  "constructor",
  "prototype",
  "x".repeat(20_000),
];

/** A valid OpenAPI document with a payload in every piece of text that reaches generated code. */
function hostileDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  PAYLOADS.forEach((payload, index) => {
    const properties: Record<string, unknown> = {};
    for (const name of PAYLOADS.slice(0, 13)) properties[name] = { type: "string", description: payload, enum: [payload, "ok"] };
    let nested: Record<string, unknown> = { type: "string", description: payload };
    for (let depth = 0; depth < 30; depth++)
      nested = { type: "object", description: payload, properties: { [PAYLOADS[depth % 13] as string]: nested } };
    paths[`/items${index}/{id}`] = {
      get: {
        operationId: `${payload.slice(0, 40)}${index}`,
        summary: payload,
        description: payload,
        tags: [payload.slice(0, 60)],
        parameters: [
          { name: "id", in: "path", required: true, description: payload, schema: { type: "string", pattern: "^[a-z]+$" } },
          { name: payload.slice(0, 50), in: "query", description: payload, schema: { type: "string", enum: [payload] } },
          { name: `X-${index}`, in: "header", description: payload, schema: { type: "string", default: payload } },
        ],
        responses: {
          "200": {
            description: payload,
            content: { "application/json": { schema: { type: "object", title: payload, properties: { ...properties, deep: nested } } } },
          },
        },
      },
    };
  });
  return {
    openapi: "3.0.3",
    info: { title: PAYLOADS.join(" | "), version: PAYLOADS[0], description: PAYLOADS.join("\n") },
    servers: [{ url: "https://api.example.com/{v}", variables: { v: { default: "v1*/ globalThis.__oapiCanary = 'server'; /*" } } }],
    paths,
    components: {
      securitySchemes: { [`${PAYLOADS[0]}`]: { type: "apiKey", in: "header", name: PAYLOADS[4], description: PAYLOADS[5] } },
    },
    security: [{ [`${PAYLOADS[0]}`]: [] }],
  };
}

const OUT = join(ROOT, ".tmp/hostile");

describe("hostile documents", () => {
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
    await rm(OUT, { recursive: true, force: true });
  });

  it(`generates code that compiles and runs none of ${PAYLOADS.length} payloads in any of their places (0 canaries fire)`, async () => {
    await mkdir(OUT, { recursive: true });
    const spec = join(OUT, "..", "hostile.json");
    await writeFile(spec, JSON.stringify(hostileDocument()));
    const result = await generateFromFile(spec, { server: { name: "hostile", title: PAYLOADS.join(" ") }, select: { all: true } });
    expect(result.tools).toHaveLength(PAYLOADS.length);
    expect(await writeAndTypecheck(OUT, result.files)).toBe("");
    const generated = (await import(/* @vite-ignore */ join(OUT, "generated/index.ts"))) as {
      tools: readonly ToolDefinition[];
      auth: import("oapi-mcp-gen-runtime").AuthDefinition;
    };
    expect((globalThis as { __oapiCanary?: unknown }).__oapiCanary).toBeUndefined();
    const upstream = await startUpstream();
    server = await startServer({
      identity: { name: "hostile", version: "1" },
      tools: generated.tools,
      auth: generated.auth,
      log: silentLogger,
      environment: testEnvironment(upstream.url, { timeoutMs: 2000, maxResponseBytes: 1e6, maxRequestBytes: 4e6, maxUploadBytes: 1e6 }),
    });
    const client = await connectClient(server.url);
    const { tools } = await client.listTools();
    // Hostile texts are long: their listings are cut, and describe_operation (which shows them whole) is listed too.
    expect(tools.filter((tool) => tool.name !== "describe_operation")).toHaveLength(PAYLOADS.length);
    expect(clientLimitProblems(tools)).toEqual([]);
    // The raw result: the upstream's `{}` may not fit the document's schema, and then the success comes back as text.
    const called = await client.request(
      { method: "tools/call", params: { name: tools[0]?.name as string, arguments: { id: "abc" } } },
      CallToolResultSchema,
    );
    expect(called.isError).toBeFalsy();
    expect(called.content).toBeDefined();
    await client.close();
    await upstream.close();
    expect((globalThis as { __oapiCanary?: unknown }).__oapiCanary).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000);

  it("cannot pollute prototypes through the document or config loaders", async () => {
    await mkdir(OUT, { recursive: true });
    const yamlDoc = join(OUT, "..", "proto.yaml");
    await writeFile(
      yamlDoc,
      "openapi: 3.0.3\n__proto__:\n  polluted: yes\ninfo:\n  title: t\n  version: '1'\n  constructor:\n    prototype:\n      polluted: yes\npaths: {}\n",
    );
    const { document } = await readDocumentFile(yamlDoc);
    expect(Object.getPrototypeOf(document)).toBe(Object.prototype);
    expect(() => parseConfig(JSON.parse('{"server":{"name":"x"},"operations":["a"],"__proto__":{"polluted":true}}'))).toThrow(
      /unknown key "__proto__"/,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("refuses a YAML alias bomb and a schema nested past the limit with one-line errors", async () => {
    await mkdir(OUT, { recursive: true });
    const bomb = join(OUT, "..", "bomb.yaml");
    const lines = ["a: &a [x,x,x,x,x,x,x,x,x]"];
    for (const [from, to] of [
      ["a", "b"],
      ["b", "c"],
      ["c", "d"],
      ["d", "e"],
      ["e", "f"],
      ["f", "g"],
      ["g", "h"],
      ["h", "i"],
    ])
      lines.push(`${to}: &${to} [${Array(9).fill(`*${from}`).join(",")}]`);
    await writeFile(bomb, `${lines.join("\n")}\n`);
    const config = join(OUT, "..", "all.yaml");
    await writeFile(config, stringify({ server: { name: "x" }, select: { all: true } }));
    const started = performance.now();
    const refused = runCli([bomb, "--config", config, "--out", join(OUT, "bomb")]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*invalid YAML: Excessive alias count/);
    expect(performance.now() - started).toBeLessThan(30_000);
    let deep: Record<string, unknown> = { type: "string" };
    for (let depth = 0; depth < 100; depth++) deep = { type: "object", properties: { child: deep } };
    const deepDoc = join(OUT, "..", "deep.json");
    await writeFile(
      deepDoc,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "t", version: "1" },
        paths: {
          "/a": {
            get: { operationId: "getA", responses: { "200": { description: "ok", content: { "application/json": { schema: deep } } } } },
          },
        },
      }),
    );
    const tooDeep = runCli([deepDoc, "--config", config, "--out", join(OUT, "deep")]);
    expect(tooDeep.status).toBe(1);
    expect(tooDeep.stderr.trim().split("\n")).toEqual([expect.stringMatching(/^error: getA: schema nested deeper than 64 levels/)]);
  });

  it("generates from a document holding an array longer than a call's arguments may be (200,000 values)", async () => {
    await mkdir(OUT, { recursive: true });
    const long = join(OUT, "..", "long-array.json");
    const codes = Array.from({ length: 200_000 }, (_, index) => index);
    const operation = { operationId: "getA", "x-codes": codes, responses: { "200": { description: "ok" } } };
    await writeFile(long, JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths: { "/a": { get: operation } } }));
    const run = runCli([long, "--out", join(OUT, "long"), "--quiet"]);
    expect(run.stderr).not.toContain("RangeError");
    expect(run.status, run.stderr).toBe(0);
  });
});
