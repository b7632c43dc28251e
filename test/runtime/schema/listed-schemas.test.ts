import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { listedForm, listedInputSchema, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { describe, expect, it } from "vitest";
import { tools as memosTools } from "../../../generated/index.js";
import { toolsListSize } from "../../../generator/model/index.js";
import { tools as cmsTools } from "../../fixtures/cms/generated/index.js";
import { tools as kitchenSinkTools } from "../../fixtures/kitchen-sink/generated/index.js";
import { startMemosServer } from "../../helpers/memos-server.js";
import { portabilityFindings } from "../../helpers/portability.js";
import { strictProblems } from "../../helpers/schema-dialects.js";
import { startUpstream } from "../../helpers/upstream.js";

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
          additionalProperties: false,
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

  it("says what each generated tool's own schema says (written out, less readOnly, the root still closed)", () => {
    let inlined = 0;
    for (const [label, tools] of REGISTRIES) {
      for (const tool of tools) {
        const listed = listedInputSchema(tool.inputSchema);
        expect(tool.inputSchema.additionalProperties, `${label} ${tool.name}`).toBe(false);
        expect(listed.additionalProperties, `${label} ${tool.name}`).toBe(false);
        const before = resolved(withoutReadOnly(tool.inputSchema), withoutReadOnly(tool.inputSchema.$defs ?? {}) as Schema);
        const after = resolved(listed, (listed.$defs ?? {}) as Schema);
        expect(after, `${label} ${tool.name}`).toEqual(before);
        expect(strictProblems(`${label} ${tool.name}`, listed)).toEqual([]);
        if (Object.keys((listed.$defs ?? {}) as Schema).length < Object.keys((tool.inputSchema.$defs ?? {}) as Schema).length) inlined++;
      }
    }
    expect(inlined).toBeGreaterThan(5);
  });
});

describe("listed output schemas", () => {
  it("each stands alone: the documented shape in $defs under a root every object matches, said portably", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const [label, tools] of REGISTRIES) {
      for (const tool of tools) {
        const listed = listedForm(tool).outputSchema as Schema | undefined;
        if (tool.outputSchema === undefined) continue;
        expect(listed, `${label} ${tool.name}`).toBeDefined();
        const schema = listed as Schema;
        expect(JSON.stringify(schema)).not.toMatch(/output schema of tool|same shape as tool/);
        expect(portabilityFindings(schema), `${label} ${tool.name}`).toEqual([]);
        const validate = ajv.compile(schema);
        for (const value of [{}, { anything: [1, { deep: null }] }, { result: "text" }, { ok: true }, { id: { nested: [] } }]) {
          expect(validate(value), `${label} ${tool.name} ${JSON.stringify(value)}`).toBe(true);
        }
        if ((tool.outputValidation ?? "warn") === "strict") continue;
        const defs = schema.$defs as Schema;
        const { $defs: _, ...documented } = tool.outputSchema;
        const names = Object.keys((documented.properties ?? {}) as Schema);
        expect(Object.keys(((defs.result as Schema).properties ?? {}) as Schema)).toEqual(names);
      }
    }
  });

  it("lists the document's exact schema under output.validate: strict, and ok as a boolean", () => {
    const tool = { ...(memosTools[0] as ToolDefinition), outputValidation: "strict" as const };
    const listed = listedForm(tool).outputSchema as Schema;
    expect(JSON.stringify(listed)).not.toContain('"not"');
    const empty = memosTools.find(
      (each) => JSON.stringify(each.outputSchema) === JSON.stringify({ type: "object", properties: { ok: { type: "boolean" } } }),
    );
    expect(empty, "Memos has a tool with an empty result").toBeDefined();
    const defs = (listedForm(empty as ToolDefinition).outputSchema as Schema).$defs as Schema;
    expect(defs.result).toEqual({ type: "object", properties: { ok: { type: "boolean" } } });
  });

  it("tools/list of the committed Memos server is its tools' listings, and the generator reports its size exactly", async () => {
    const upstream = await startUpstream();
    const server = await startMemosServer(upstream.url);
    const client = new Client({ name: "listing", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const { tools } = await client.listTools();
      expect(tools).toEqual(JSON.parse(JSON.stringify(memosTools.map((tool) => listedForm(tool)))));
      expect(Buffer.byteLength(JSON.stringify({ tools }))).toBe(toolsListSize(memosTools).bytes);
      const result = await client.callTool({ name: "memo_get_memo", arguments: { memo: "abc" } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
      await server.close();
      await upstream.close();
    }
  });
});
