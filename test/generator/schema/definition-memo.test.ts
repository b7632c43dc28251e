import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../generator/config/index.js";
import { buildTools, operationToTool, type ToolModel } from "../../../generator/model/index.js";
import { selectOperations } from "../../../generator/select/index.js";
import { type JsonObject, normalizeDocument, type OpenApiDocument, readDocumentSource } from "../../../openapi/document/index.js";
import { buildApiModel } from "../../../openapi/model/index.js";
import { bundleExternalRefs } from "../../../openapi/references/index.js";

const ROOT = join(import.meta.dirname, "../../..");

/** The tools of every operation of a document, built together (sharing definitions) and each on its own. */
function bothWays(document: OpenApiDocument): { together: ToolModel[]; alone: ToolModel[] } {
  const model = buildApiModel(document);
  const config = resolveConfig({ server: { name: "t" }, select: { all: true }, schemas: { maxBytes: 0 } });
  const entries = selectOperations(model, config);
  const together = buildTools(model, entries, config);
  const alone = entries.map((entry, index) =>
    operationToTool(model, entry, together[index]?.name ?? "", {}, config, config.output.validate),
  );
  return { together, alone };
}

/** What a tool's schemas and warnings are, warnings in any order. */
function converted(tool: ToolModel) {
  return { input: tool.inputSchema, output: tool.outputSchema, warnings: [...tool.warnings].sort() };
}

describe("definitions converted once and shared between tools", () => {
  for (const path of [
    "examples/memos/openapi.yaml",
    "test/fixtures/docker-engine/swagger.yaml",
    "test/fixtures/kitchen-sink/openapi.yaml",
    "test/fixtures/cms/openapi.yaml",
    "test/fixtures/redocly-museum/openapi.yaml",
    "test/fixtures/scalar-galaxy/openapi.yaml",
  ]) {
    it(`gives each tool of ${path} the schemas and warnings it gets alone`, async () => {
      const spec = join(ROOT, path);
      const { document: read } = await readDocumentSource(spec);
      const { document } = await normalizeDocument(await bundleExternalRefs(read, spec, { outsideFolder: false }), spec);
      const { together, alone } = bothWays(document);
      expect(together.map(converted)).toEqual(alone.map(converted));
    });
  }

  /** Two operations that both return a user, whose address and a pair of names that clean to one key. */
  const document: OpenApiDocument = {
    openapi: "3.0.3",
    info: { title: "t", version: "1" },
    paths: {
      "/a": {
        get: {
          operationId: "a",
          responses: { "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/Page" } } } } },
        },
      },
      "/b": {
        get: {
          operationId: "b",
          responses: { "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/Pair" } } } } },
        },
      },
      "/c": {
        get: {
          operationId: "c",
          responses: { "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/Reverse" } } } } },
        },
      },
    },
    components: {
      schemas: {
        Page: { type: "object", properties: { user: { $ref: "#/components/schemas/User" }, tag: { $ref: "#/components/schemas/a_b" } } },
        Pair: { type: "object", properties: { user: { $ref: "#/components/schemas/User" }, odd: { $ref: "#/components/schemas/a b" } } },
        // Here the schema named with a space comes first and holds the key `a_b`; `a_b` itself becomes `a_b_2`.
        Reverse: { type: "object", properties: { odd: { $ref: "#/components/schemas/a b" }, tag: { $ref: "#/components/schemas/a_b" } } },
        User: {
          type: "object",
          properties: { name: { type: "string", pattern: "(?=x)" }, address: { $ref: "#/components/schemas/Address" } },
        },
        Address: { type: "object", properties: { city: { type: "string" }, user: { $ref: "#/components/schemas/User" } } },
        a_b: { type: "string", enum: ["x"] },
        "a b": { type: "integer" },
      },
    },
  };

  it("shares one frozen object for a definition every tool converts alike", () => {
    const { together } = bothWays(document);
    const [a, b] = together;
    const defs = (tool: ToolModel | undefined) => tool?.outputSchema.$defs as Record<string, JsonObject>;
    expect(defs(a).User).toBe(defs(b).User);
    expect(defs(a).Address).toBe(defs(b).Address);
    expect(Object.isFrozen(defs(a).User)).toBe(true);
    expect(() => {
      (defs(a).User as { type: string }).type = "string";
    }).toThrow(TypeError);
  });

  it("converts again where another schema holds a definition's key, and says each tool's warnings", () => {
    const { together, alone } = bothWays(document);
    expect(together.map(converted)).toEqual(alone.map(converted));
    const reverse = together[2]?.outputSchema.$defs as Record<string, JsonObject>;
    expect(reverse.a_b).toEqual({ type: "integer" });
    expect(reverse.a_b_2).toEqual({ type: "string", enum: ["x"] });
    // The look-ahead warning comes from User, converted once: both tools that reach it still say it, under their names.
    expect(together[0]?.warnings.filter((warning) => warning.startsWith("a: pattern"))).toHaveLength(1);
    expect(together[1]?.warnings.filter((warning) => warning.startsWith("b: pattern"))).toHaveLength(1);
  });
});
