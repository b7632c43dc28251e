import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { listedForm, listedInputSchema, shareOutputSchemas, type ToolDefinition, tolerantSchema } from "oapi-mcp-gen-runtime";
import { describe, expect, it } from "vitest";
import { tools as memosTools } from "../generated/index.js";
import { toolsListSize } from "../generator/tools-list.js";
import { tools as cmsTools } from "./fixtures/cms/generated/index.js";
import { tools as kitchenSinkTools } from "./fixtures/kitchen-sink/generated/index.js";
import { startMemosServer } from "./helpers/memos-server.js";
import { strictProblems } from "./helpers/schema-dialects.js";
import { startUpstream } from "./helpers/upstream.js";

type Schema = { [key: string]: unknown };

const REGISTRIES: [string, readonly ToolDefinition[]][] = [
  ["Memos", memosTools],
  ["kitchen-sink", kitchenSinkTools],
  ["cms", cmsTools],
];

/** A schema with every `$ref` written out (siblings merged in), to `depth` levels: what it says, however it says it. */
function resolved(node: unknown, defs: Schema, depth = 0): unknown {
  if (Array.isArray(node)) return node.map((item) => resolved(item, defs, depth));
  if (typeof node !== "object" || node === null) return node;
  const { $ref, $defs: _, ...rest } = node as Schema;
  const key = typeof $ref === "string" ? $ref.replace("#/$defs/", "") : undefined;
  const base = key !== undefined && depth < 12 ? { ...(defs[key] as Schema), ...rest } : typeof $ref === "string" ? node : rest;
  const out: Schema = {};
  for (const [name, value] of Object.entries(base as Schema)) {
    if (name === "$defs") continue;
    out[name] = ["enum", "const", "default", "examples"].includes(name) ? value : resolved(value, defs, depth + (key ? 1 : 0));
  }
  return out;
}

function withoutReadOnly(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutReadOnly);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === "readOnly" && typeof value === "boolean"))
      .map(([key, value]) => [key, ["enum", "const", "default", "examples"].includes(key) ? value : withoutReadOnly(value)]),
  );
}

describe("the listed input schema", () => {
  it("writes a definition used once where it is used and keeps those used twice, recursive or clashing", () => {
    const schema = {
      type: "object",
      properties: {
        once: { $ref: "#/$defs/once" },
        twiceA: { $ref: "#/$defs/twice" },
        twiceB: { $ref: "#/$defs/twice" },
        tree: { $ref: "#/$defs/tree" },
        clash: { $ref: "#/$defs/described", description: "the property's own words" },
        id: { type: "integer", readOnly: true },
        ["__proto__"]: { $ref: "#/$defs/__proto__" },
      },
      required: ["once"],
      additionalProperties: false,
      $defs: {
        once: { type: "object", properties: { name: { type: "string" }, inner: { $ref: "#/$defs/inner" } }, additionalProperties: false },
        inner: { type: "string", enum: ["a", "b"] },
        twice: { type: "string", maxLength: 3 },
        tree: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/tree" } } } },
        described: { type: "string", description: "the definition's words" },
        ["__proto__"]: { type: "boolean" },
      },
    };
    const listed = listedInputSchema(JSON.parse(JSON.stringify(schema)));
    expect(listed).toEqual(
      JSON.parse(
        JSON.stringify({
          type: "object",
          properties: {
            once: {
              type: "object",
              properties: { name: { type: "string" }, inner: { type: "string", enum: ["a", "b"] } },
              additionalProperties: false,
            },
            twiceA: { $ref: "#/$defs/twice" },
            twiceB: { $ref: "#/$defs/twice" },
            tree: { $ref: "#/$defs/tree" },
            clash: { $ref: "#/$defs/described", description: "the property's own words" },
            id: { type: "integer" },
            ["__proto__"]: { type: "boolean" },
          },
          required: ["once"],
          $defs: {
            twice: { type: "string", maxLength: 3 },
            tree: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/tree" } } } },
            described: { type: "string", description: "the definition's words" },
          },
        }),
      ),
    );
    expect(Object.hasOwn(listed.properties as object, "__proto__")).toBe(true);
  });

  it("says what each generated tool's own schema says (written out, less readOnly and the closed root)", () => {
    let inlined = 0;
    for (const [label, tools] of REGISTRIES) {
      for (const tool of tools) {
        const listed = listedInputSchema(tool.inputSchema);
        const { additionalProperties, ...open } = tool.inputSchema;
        expect(additionalProperties, `${label} ${tool.name}`).toBe(false);
        expect(listed.additionalProperties, `${label} ${tool.name}`).toBeUndefined();
        const before = resolved(withoutReadOnly(open), (tool.inputSchema.$defs ?? {}) as Schema);
        const after = resolved(listed, (listed.$defs ?? {}) as Schema);
        expect(after, `${label} ${tool.name}`).toEqual(before);
        expect(strictProblems(`${label} ${tool.name}`, listed)).toEqual([]);
        if (Object.keys((listed.$defs ?? {}) as Schema).length < Object.keys((tool.inputSchema.$defs ?? {}) as Schema).length) inlined++;
      }
    }
    expect(inlined).toBeGreaterThan(5);
  });
});

/** A large definition: more than twice the note that could stand for it. */
function bigObject(word: string): Schema {
  const properties = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`${word}_${i}`, { type: ["string", "null"] }]));
  return { type: "object", description: `A ${word}.`, properties };
}

function listedTool(name: string, outputSchema: Schema): ListedTool {
  return { name, inputSchema: { type: "object" }, outputSchema: outputSchema as ListedTool["outputSchema"] };
}

describe("output schemas shared across the list", () => {
  it("merges twin definitions without changing the schema given, and keeps untouched definitions shared", () => {
    const user = { type: "object", properties: { login: { type: "string" } } };
    const schema = (extra: string) => ({
      type: "object",
      properties: { author: { $ref: "#/$defs/nullable-user" }, [extra]: { $ref: "#/$defs/label" } },
      $defs: {
        user,
        "nullable-user": { ...user, type: ["object", "null"] },
        label: { type: "object", properties: { name: { type: "string" }, by: { $ref: "#/$defs/user" } } },
        issue: { type: "object", properties: { author: { $ref: "#/$defs/nullable-user" } } },
      },
    });
    const given = schema("label");
    const before = structuredClone(given);
    const definitions = new Map();
    const first = tolerantSchema(given, definitions);
    const second = tolerantSchema(schema("tag"), definitions);
    expect(given).toEqual(before);
    expect(Object.keys(first.$defs as object)).toEqual(["user", "label", "issue"]);
    expect(JSON.stringify(first)).not.toContain("nullable-user");
    const defs = (listed: Schema) => listed.$defs as Record<string, Schema>;
    // A definition with no reference to rewrite is the one tolerant object; one that was rewritten is a copy.
    expect(defs(first).label).toBe(defs(second).label);
    expect(defs(first).issue).not.toBe(defs(second).issue);
    expect(defs(first).issue).toEqual(defs(second).issue);
  });

  it("lists a definition that admits only null (Django's NullEnum) as a valid schema, not an empty enum", () => {
    const listed = tolerantSchema({
      type: "object",
      properties: { source: { anyOf: [{ $ref: "#/$defs/Source" }, { $ref: "#/$defs/NullEnum" }, { type: "null" }] } },
      $defs: { Source: { enum: ["web", "api"], type: "string" }, NullEnum: { enum: [null] } },
    });
    expect((listed.$defs as Record<string, Schema>).NullEnum).toEqual({ not: {} });
    const onlyNull = tolerantSchema({
      type: "object",
      properties: { a: { $ref: "#/$defs/Nothing" } },
      $defs: { Nothing: { type: ["null"] } },
    });
    expect((onlyNull.$defs as Record<string, Schema>).Nothing).toEqual({ not: {} });
    const validate = new Ajv2020({ strict: false }).compile(listed);
    expect([validate({ source: null }), validate({ source: "web" }), validate({ source: "x" })]).toEqual([true, true, false]);
  });

  it("writes a large definition out once and points at it from the tools after, leaving small ones in place", () => {
    const user = bigObject("user");
    const repo = bigObject("repo");
    (repo.properties as Schema).owner = { $ref: "#/$defs/user" };
    const small = { type: "string", enum: ["open", "closed"] };
    const first = listedTool("get_repo", {
      type: "object",
      properties: { repo: { $ref: "#/$defs/repo" }, state: { $ref: "#/$defs/state" } },
      $defs: { repo, state: small, user },
    });
    const second = listedTool("list_forks", {
      type: "object",
      properties: { forks: { type: "array", items: { $ref: "#/$defs/repo" } }, state: { $ref: "#/$defs/state" } },
      $defs: { repo, state: small, user },
    });
    const third = listedTool("get_user", { type: "object", properties: { me: { $ref: "#/$defs/person" } }, $defs: { person: user } });
    const [a, b, c] = shareOutputSchemas([first, second, third]);
    expect(a).toEqual(first);
    expect(b?.outputSchema).toEqual({
      type: "object",
      properties: second.outputSchema?.properties,
      $defs: {
        repo: { type: "object", description: "A repo. Listed in full in the output schema of tool `get_repo`, at $defs/repo." },
        state: small,
      },
    });
    expect(c?.outputSchema?.$defs).toEqual({
      person: { type: "object", description: "A user. Listed in full in the output schema of tool `get_repo`, at $defs/user." },
    });
  });

  it("points a result the same as an earlier tool's at it, and tells apart definitions that reach different shapes", () => {
    const body = { type: "object", properties: { item: { $ref: "#/$defs/item" } } };
    const item = (word: string) => ({ type: "object", description: `An ${word}.`, properties: { link: { $ref: "#/$defs/link" } } });
    const one = listedTool("get_one", { ...body, $defs: { item: item("x"), link: bigObject("link") } });
    const same = listedTool("get_same", { ...body, $defs: { item: item("x"), link: bigObject("link") } });
    const other = listedTool("get_other", { ...body, $defs: { item: item("x"), link: bigObject("other") } });
    const [, b, c] = shareOutputSchemas([one, same, other]);
    expect(b?.outputSchema).toEqual({
      type: "object",
      description: "The same shape as tool `get_one`'s result: its output schema lists the properties.",
    });
    // The same `item` JSON reaching another `link` is another shape: it stays whole.
    expect(c?.outputSchema).toEqual(other.outputSchema);
  });

  it("points a definition at the tool whose whole result it is, even a later one", () => {
    const user = bigObject("user");
    const first = listedTool("list_events", { type: "object", properties: { actor: { $ref: "#/$defs/user" } }, $defs: { user } });
    const second = listedTool("get_user", user);
    const [a, b] = shareOutputSchemas([first, second]);
    expect(a?.outputSchema?.$defs).toEqual({
      user: { type: "object", description: "A user. The same shape as tool `get_user`'s result: its output schema lists the properties." },
    });
    expect(b).toEqual(second);
  });

  it("points only at shapes other tools spell out, each the one it replaced, and lists schemas clients compile", () => {
    for (const [label, tools] of REGISTRIES) {
      const whole = tools.map((tool) => listedForm(tool));
      const shared = shareOutputSchemas(whole);
      const byName = new Map(whole.map((form) => [form.name, form]));
      const sharedByName = new Map(shared.map((form) => [form.name, form]));
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      shared.forEach((form, index) => {
        const original = whole[index]?.outputSchema as Schema | undefined;
        const listed = form.outputSchema as Schema | undefined;
        if (listed) expect(() => ajv.compile(listed), `${label} ${form.name}`).not.toThrow();
        // Each note with the shape it stands for: a whole result (its root, less $defs) or a definition.
        const notes: [Schema, Schema, boolean][] = [];
        if (listed && original && listed.properties === undefined && /tool `/.test(String(listed.description))) {
          const { $defs: _, ...root } = original;
          notes.push([listed, root, true]);
        }
        for (const [key, def] of Object.entries((listed?.$defs ?? {}) as Record<string, Schema>)) {
          const own = ((original?.$defs ?? {}) as Record<string, Schema>)[key] as Schema;
          if (JSON.stringify(def) !== JSON.stringify(own)) notes.push([def, own, false]);
        }
        for (const [note, replaced, isRoot] of notes) {
          const match = /tool `([^`]+)`(?:'s result|, at \$defs\/([^.]+)\.)/.exec(String(note.description));
          expect(match, `${label} ${form.name}: ${note.description}`).not.toBeNull();
          const [, home, key] = match ?? [];
          const homeIndex = shared.findIndex((candidate) => candidate.name === home);
          expect(homeIndex, `${label} ${form.name} → ${home}`).toBeGreaterThanOrEqual(0);
          expect(homeIndex, `${label} ${form.name} → ${home}`).not.toBe(index);
          const homeWhole = byName.get(home ?? "")?.outputSchema as Schema;
          const homeShared = sharedByName.get(home ?? "")?.outputSchema as Schema;
          const at = (schema: Schema) => (key === undefined ? schema : (schema.$defs as Record<string, unknown>)[key]);
          // The home spells the shape out as its own whole form does (what it reaches may point on in turn), and that
          // is the shape the note replaced.
          const { $defs: _s, ...homeListed } = at(homeShared) as Schema;
          const { $defs: _w, ...homeOwn } = at(homeWhole) as Schema;
          expect(homeListed, `${label} ${form.name} → ${home}`).toEqual(homeOwn);
          const { $defs: _, ...homeShape } = at(homeWhole) as Schema;
          expect(homeShape, `${label} ${form.name} → ${home}`).toEqual(replaced);
          expect(note.type).toEqual(isRoot ? "object" : replaced.type);
        }
      });
    }
  });

  it("tools/list of the committed Memos server is the shared listing, and the generator reports its size exactly", async () => {
    const upstream = await startUpstream();
    const server = await startMemosServer(upstream.url);
    const client = new Client({ name: "listing", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const { tools } = await client.listTools();
      expect(tools).toEqual(JSON.parse(JSON.stringify(shareOutputSchemas(memosTools.map((tool) => listedForm(tool))))));
      expect(tools.some((tool) => /Listed in full in the output schema of tool `/.test(JSON.stringify(tool.outputSchema)))).toBe(true);
      expect(Buffer.byteLength(JSON.stringify({ tools }))).toBe(toolsListSize(memosTools).bytes);
      // A result is still checked against the tool's whole schema: calling a tool whose listing points elsewhere works.
      const pointed = tools.find((tool) => tool.name === "memo_get_memo");
      expect(JSON.stringify(pointed?.outputSchema)).toMatch(/Listed in full|The same shape/);
      const result = await client.callTool({ name: "memo_get_memo", arguments: { memo: "abc" } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
      await server.close();
      await upstream.close();
    }
  });
});
