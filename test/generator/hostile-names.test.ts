import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { generateFromFile } from "../../generator/generate.js";
import { ROOT, runCli } from "../helpers/cli.js";
import { writeAndTypecheck } from "../helpers/generated-tree.js";

const MEMOS = join(ROOT, "examples/memos/openapi.yaml");

/** A one-path document whose GET operations carry the given operationIds. */
function document(ids: readonly string[]): string {
  const paths = Object.fromEntries(
    ids.map((id, index) => [`/u${index}`, { get: { operationId: id, responses: { 200: { description: "ok" } } } }]),
  );
  return JSON.stringify({ openapi: "3.0.3", info: { title: "U", version: "1" }, paths });
}

describe("operationIds, paths and configs a new user or an attacker writes", () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "oapi-hostile-names-"));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("gives operationIds in other scripts stable readable names (red-team repro 07)", async () => {
    const spec = join(scratch, "scripts.json");
    await writeFile(spec, document(["获取用户", "获取订单", "列出", "удалить", "حذف", "\u202e\u202d"]));
    const result = await generateFromFile(spec, { server: { name: "u" }, select: { all: true } });
    expect(result.tools.map((tool) => tool.name)).toEqual([
      "huo_qu_yong_hu",
      "huo_qu_ding_dan",
      "lie_chu",
      "udalit",
      "hdhf",
      "op_60a5a68b",
    ]);
    // Titles are spelt the same way (never empty), so clients have something to show.
    expect(result.tools.map((tool) => tool.title)).toEqual(["Huo qu yong hu", "Huo qu ding dan", "Lie chu", "Udalit", "Hdhf", "Get u5"]);
  });

  it("shows a bidi override of a document as ? in its messages", async () => {
    const project = join(scratch, "bidi");
    await mkdir(project);
    await writeFile(join(project, "openapi.json"), document(["getUser", "\u202egetUser"]));
    const result = runCli(["openapi.json", "--out", "generated"], project);
    expect(result.status).toBe(1);
    expect(result.stderr).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
    expect(result.stderr).toContain('"?getUser"');
  });

  it("writes no invisible format character into generated code: a document's or an x-mcp description's bidi marks are escapes", async () => {
    const spec = join(scratch, "trojan.json");
    const paths = {
      "/a": { get: { operationId: "getA", description: "ok \u202e// evil \u200b\u{e0041}", responses: { 200: { description: "ok" } } } },
      "/b": {
        get: { operationId: "getB", "x-mcp": { description: "marked \u2066hidden\u2069" }, responses: { 200: { description: "ok" } } },
      },
    };
    await writeFile(spec, JSON.stringify({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths }));
    const result = await generateFromFile(spec, { server: { name: "t" }, select: { all: true } });
    for (const [path, text] of result.files) {
      if (!path.endsWith(".ts")) continue;
      expect(text, path).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200b-\u200f\u{e0000}-\u{e007f}]/u);
    }
    const a = result.files.get("tools/get_a.ts") ?? "";
    expect(a).toContain("ok \\u202e// evil \\u200b\\udb40\\udc41");
    expect(result.files.get("tools/get_b.ts")).toContain("marked \\u2066hidden\\u2069");
    // The value is the document's, escaped only in the code: the listed tool says what the document said.
    expect(result.tools.find((tool) => tool.name === "get_b")?.description).toBe("marked \u2066hidden\u2069");
  });

  it("x-mcp names that clash with each other or with another tool's name are left out with a warning, never a failed run", async () => {
    const spec = join(scratch, "marks.json");
    const get = (id: string, name: string) => ({ get: { operationId: id, "x-mcp": { name }, responses: { 200: { description: "ok" } } } });
    const paths = {
      "/a": get("getA", "same_name"),
      "/b": get("getB", "same_name"),
      "/c": get("getC", "get_d"),
      "/d": { get: { operationId: "getD", responses: { 200: { description: "ok" } } } },
      "/e": get("getE", "fine_name"),
    };
    await writeFile(spec, JSON.stringify({ openapi: "3.0.3", info: { title: "M", version: "1" }, paths }));
    const result = await generateFromFile(spec, { server: { name: "m" }, select: { all: true } });
    expect(result.tools.map((tool) => tool.name)).toEqual(["get_a", "get_b", "get_c", "get_d", "fine_name"]);
    expect(result.warnings).toEqual(
      expect.arrayContaining([
        'getA: x-mcp.name "same_name" is also the name of getB\'s tool; left out',
        'getC: x-mcp.name "get_d" is also the name of getD\'s tool; left out',
      ]),
    );
    // The config's own name wins over the document's, and takes a name the document's could not.
    const named = await generateFromFile(spec, {
      server: { name: "m" },
      select: { all: true },
      overrides: { getA: { name: "same_name" } },
    });
    expect(named.tools.map((tool) => tool.name).slice(0, 2)).toEqual(["same_name", "get_b"]);
  });

  it("types an undeclared path placeholder as a string, and the tree compiles (red-team repro 05)", async () => {
    const spec = join(scratch, "placeholder.yaml");
    await writeFile(
      spec,
      [
        "openapi: 3.0.3",
        "info: {title: P, version: '1'}",
        "paths:",
        "  /a/{id}/{y}:",
        "    get:",
        "      operationId: getA",
        "      parameters:",
        "        - {name: id, in: path, required: true, schema: {type: string}}",
        "      responses: {'200': {description: ok}}",
        "  /f:",
        "    post:",
        "      operationId: createField",
        "      requestBody:",
        "        content:",
        "          application/json:",
        "            schema: {type: object, required: [field, type, meta], properties: {field: {type: string}, schema: {type: object}}}",
        "      responses: {'200': {description: ok}}",
      ].join("\n"),
    );
    const result = await generateFromFile(spec, { server: { name: "p" }, select: { all: true } });
    expect(result.files.get("tools/get_a.ts")).toContain("export type GetAArgs = { id: NonNullable<Operation");
    expect(result.files.get("tools/get_a.ts")).toContain("y: string");
    expect(await writeAndTypecheck(join(ROOT, ".tmp", "placeholder-tree"), result.files)).toBe("");
  }, 60_000);

  it("compiles what openapi-typescript types wrongly: allOf requiring an optional or undeclared property, pointers inside (from a list too), a body without a media type", async () => {
    const spec = join(scratch, "inner-refs.json");
    const resource = {
      type: "object",
      properties: {
        attributes: { type: "object", properties: { title: { type: "string" } } },
        relationships: { type: "object", properties: { owner: { type: "object", properties: { data: { type: "string" } } } } },
      },
    };
    await writeFile(
      spec,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "Inner", version: "1" },
        paths: {
          "/summary": {
            get: {
              operationId: "getSummary",
              responses: {
                200: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Summary" } } } },
              },
            },
          },
          "/events": {
            get: {
              operationId: "listEvents",
              responses: {
                200: {
                  description: "ok",
                  content: {
                    "application/json": { schema: { type: "array", items: { type: "object", properties: { at: { type: "string" } } } } },
                  },
                },
              },
            },
            post: {
              operationId: "createEvent",
              requestBody: {
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: {
                        // Plaid's and Twine's shape: required names of an optional (or undeclared) property.
                        attributes: {
                          allOf: [{ $ref: "#/components/schemas/Resource/properties/attributes" }],
                          required: ["title", "kind"],
                        },
                        owner: { $ref: "#/components/schemas/Resource/properties/relationships/properties/owner/properties/data" },
                        // Brex's shape: a pointer into another operation's response.
                        at: { $ref: "#/paths/~1events/get/responses/200/content/application~1json/schema/items/properties/at" },
                      },
                    },
                  },
                },
              },
              responses: { 200: { description: "ok" } },
            },
            // Just Eat's shape: a request body that declares no media type.
            delete: { operationId: "deleteEvents", requestBody: { content: {} }, responses: { 204: { description: "gone" } } },
          },
        },
        components: {
          schemas: {
            Resource: resource,
            // Codat's shape: a component made of its own `definitions`, referred to from a list (`allOf`).
            Summary: {
              allOf: [
                { $ref: "#/components/schemas/Summary/definitions/kind" },
                { type: "object", properties: { count: { $ref: "#/components/schemas/Summary/definitions/count" } } },
              ],
              definitions: {
                kind: { type: "object", properties: { type: { type: "string" } } },
                count: { type: "object", properties: { matched: { type: "number" } } },
              },
            },
          },
        },
      }),
    );
    const result = await generateFromFile(spec, { server: { name: "inner" }, select: { all: true } });
    expect(await writeAndTypecheck(join(ROOT, ".tmp", "inner-refs-tree"), result.files)).toBe("");
  }, 60_000);

  it("compiles schemas made of themselves (Vercel's `type: null` beside oneOf, an array of itself) and reads them as null or an alternative", async () => {
    const spec = join(scratch, "own-alternatives.json");
    const value = {
      type: "null",
      oneOf: [{ type: "string" }, { type: "number" }, { type: "array", items: { $ref: "#/components/schemas/Value" } }],
    };
    const body = {
      type: "object",
      properties: { value: { $ref: "#/components/schemas/Value" }, tree: { $ref: "#/components/schemas/Tree" } },
    };
    await writeFile(
      spec,
      JSON.stringify({
        openapi: "3.1.0",
        info: { title: "Own", version: "1" },
        paths: {
          "/items": {
            post: {
              operationId: "putItem",
              requestBody: { content: { "application/json": { schema: body } } },
              responses: { 200: { description: "ok", content: { "application/json": { schema: body } } } },
            },
          },
        },
        components: {
          schemas: {
            Value: value,
            // Two schemas that are each other's alternatives, with no object between.
            Tree: { anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/components/schemas/Forest" } }] },
            Forest: { oneOf: [{ $ref: "#/components/schemas/Tree" }, { type: "integer" }] },
          },
        },
      }),
    );
    const result = await generateFromFile(spec, { server: { name: "own" }, select: { all: true } });
    expect(await writeAndTypecheck(join(ROOT, ".tmp", "own-alternatives-tree"), result.files)).toBe("");
    const input = result.tools[0]?.inputSchema;
    const validate = new Ajv2020({ strict: false }).compile(input ?? {});
    for (const value of ["x", 3, null, ["a", [1, null]]]) expect(validate({ body: { value } }), JSON.stringify(value)).toBe(true);
    expect(validate({ body: { value: true } })).toBe(false);
    expect(validate({ body: { tree: ["a", [7, "b"]] } })).toBe(true);
  }, 60_000);

  it("quotes the paths of the README's shell lines (red-team repro 06)", async () => {
    const project = join(scratch, "quoting");
    const specs = join(project, "specs$(touch PWNED)");
    await mkdir(specs, { recursive: true });
    await copyFile(join(ROOT, "test/fixtures/kitchen-sink/openapi.yaml"), join(specs, "api;id.yaml"));
    const result = runCli(["specs$(touch PWNED)/api;id.yaml", "--out", "gen$(touch PWNED)"], project);
    expect(result.status, result.stderr).toBe(0);
    const readme = await readFile(join(project, "gen$(touch PWNED)/README.md"), "utf8");
    expect(readme).toContain("npx oapi-mcp-gen 'specs$(touch PWNED)/api;id.yaml' --out 'gen$(touch PWNED)' --check");
    expect(readme).toContain("cd 'gen$(touch PWNED)'");
    expect(readme).not.toMatch(/^(?:cd|npx) [^'\n]*\$\(/m);
  });

  it("names the paths in the CI workflow from the project's root when run in a subfolder of a project without git", async () => {
    const project = join(scratch, "host");
    await mkdir(join(project, "apis", "kitchen"), { recursive: true });
    await writeFile(join(project, "package.json"), '{ "name": "host", "version": "1.0.0" }\n');
    await copyFile(join(ROOT, "test/fixtures/kitchen-sink/openapi.yaml"), join(project, "apis", "kitchen", "openapi.yaml"));
    const result = runCli(["openapi.yaml", "--out", "generated"], join(project, "apis", "kitchen"));
    expect(result.status, result.stderr).toBe(0);
    const workflow = await readFile(join(project, "apis", "kitchen", "generated", "deploy", "oapi-mcp-check.yml"), "utf8");
    expect(workflow).toContain("npx oapi-mcp-gen apis/kitchen/openapi.yaml\n          --out apis/kitchen/generated --check");
    expect(workflow).toContain('npx tsc -p apis/kitchen/generated/tsconfig.json\n          --outDir "$RUNNER_TEMP/mcp-server-build"');
  });

  it("reports a config's misspelt keys with its unknown operationIds and overrides, nearest ids first", async () => {
    const project = join(scratch, "config");
    await mkdir(project);
    await copyFile(MEMOS, join(project, "openapi.yaml"));
    await writeFile(
      join(project, "oapi-mcp.config.yaml"),
      [
        "server: { name: memos }",
        "operations: [MemoService_ListMemos, MemoService_GetMemo, MemoService_ListMemoz]",
        "pathPrefixs: { memo: memos/ }",
        "overrides:",
        "  MemoService_UpdateMemos: { title: Update }",
      ].join("\n"),
    );
    const result = runCli(["openapi.yaml", "--out", "generated"], project);
    expect(result.status).toBe(1);
    expect(result.stderr.split("\n").filter(Boolean)).toEqual([
      'error: oapi-mcp.config.yaml: top level: unknown key "pathPrefixs" (did you mean "pathPrefixes"?)',
      'error: oapi-mcp.config.yaml: operations: "MemoService_ListMemoz" is not an operationId in the document (did you mean "MemoService_ListMemos"?)',
      'error: oapi-mcp.config.yaml: overrides: "MemoService_UpdateMemos" is not an operationId in the document (did you mean "MemoService_UpdateMemo", which is not selected?)',
    ]);
  });

  it("init proposes Slack's token parameter from the environment, and the config it writes generates without it", async () => {
    const project = join(scratch, "slack");
    await mkdir(project);
    await copyFile(join(ROOT, "test/fixtures/slack/openapi.json"), join(project, "openapi.json"));
    expect(runCli(["init", "openapi.json"], project).status).toBe(0);
    const config = parse(await readFile(join(project, "oapi-mcp.config.yaml"), "utf8")) as { parameters: unknown };
    expect(config.parameters).toEqual({ token: { env: "SLACK_WEB_API_TOKEN" } });
    const generated = runCli(["openapi.json", "--out", "generated"], project);
    expect(generated.status, generated.stderr).toBe(0);
    const readme = await readFile(join(project, "generated/README.md"), "utf8");
    expect(readme).toMatch(/\| `SLACK_WEB_API_TOKEN` \| [^|]*`token`[^|]* \| \d+ tools? \|/);
  });

  it("init asks for no credential setting its own first selection never uses", async () => {
    const project = join(scratch, "unused-secret");
    await mkdir(project);
    const operation = (id: string, method: string, parameter?: string) => ({
      [method]: {
        operationId: id,
        ...(parameter ? { parameters: [{ name: parameter, in: "query", required: true, schema: { type: "string" } }] } : {}),
        responses: { "200": { description: "ok" } },
      },
    });
    const document = {
      openapi: "3.0.3",
      info: { title: "Shop", version: "1" },
      paths: {
        "/orders": { ...operation("listOrders", "get", "api_key"), ...operation("createOrder", "post", "api_key") },
        // Only an operation the first selection leaves out (it deletes) declares client_secret.
        "/sessions": operation("deleteSessions", "delete", "client_secret"),
      },
    };
    await writeFile(join(project, "openapi.json"), JSON.stringify(document));
    expect(runCli(["init", "openapi.json"], project).status).toBe(0);
    const text = await readFile(join(project, "oapi-mcp.config.yaml"), "utf8");
    expect((parse(text) as { parameters: unknown }).parameters).toEqual({ api_key: { env: "SHOP_API_KEY" } });
    expect(text).toContain('  # "client_secret":  # declared by 1 operation, none selected');
  });
});
