import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { listedOutputSchema, portableSchema, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tools as memosTools } from "../../../generated/index.js";
import { tools as kitchenSinkTools } from "../../fixtures/kitchen-sink/generated/index.js";
import { startMemosServer } from "../../helpers/memos-server.js";
import { strictProblems } from "../../helpers/schema-dialects.js";
import { startUpstream } from "../../helpers/upstream.js";

describe("the listed output schema", () => {
  const tool = (outputSchema: Record<string, unknown>, outputValidation?: "strict"): ToolDefinition =>
    ({ ...(memosTools[0] as ToolDefinition), outputSchema, ...(outputValidation ? { outputValidation } : {}) }) as ToolDefinition;
  const documented = {
    type: "object",
    required: ["id"],
    properties: {
      id: { type: "integer", minimum: 1, examples: [42] },
      examples: { type: "string", example: "a property named examples stays" },
      note: { type: ["string", "null"], maxLength: 5 },
      owner: { $ref: "#/$defs/person" },
      any: { description: "free-form" },
    },
    additionalProperties: false,
    $defs: { person: { type: "object", properties: { name: { type: "string", format: "email" } } } },
  };

  it("keeps the documented shape in $defs (no samples, no value limits), under a root that admits every object", () => {
    const listed = listedOutputSchema(tool(documented))?.schema;
    expect(listed).toEqual({
      type: "object",
      description: expect.stringContaining("$defs/result"),
      anyOf: [{ $ref: "#/$defs/result" }, { not: { $ref: "#/$defs/result" } }],
      $defs: {
        result: {
          type: "object",
          required: ["id"],
          properties: {
            id: { type: "integer" },
            examples: { type: "string" },
            note: { anyOf: [{ type: "string" }, { type: "null" }] },
            owner: { $ref: "#/$defs/person" },
            any: { description: "free-form", $ref: "#/$defs/any" },
          },
          additionalProperties: false,
        },
        person: { type: "object", properties: { name: { type: "string", format: "email" } } },
        any: {
          description: "Any JSON value.",
          anyOf: ["object", "array", "string", "number", "boolean", "null"].map((type) => ({ type })),
        },
      },
    });
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(listed as object);
    for (const value of [{ id: 1 }, { id: "not a number" }, { other: [] }, {}]) expect(validate(value)).toBe(true);
  });

  it("says a nullable object with variants so strict Ajv finds each keyword beside its type (GitHub's pages site body)", () => {
    const properties = { a: { type: "string" }, b: { type: "string" } };
    const body = { type: ["object", "null"], properties, anyOf: [{ required: ["a"] }, { required: ["b"] }] };
    const listed = portableSchema({ type: "object", properties: { body } });
    expect(listed.properties).toEqual({ body: { anyOf: [{ type: "object", properties, anyOf: body.anyOf }, { type: "null" }] } });
    // (Ajv's strictRequired also flags the document's own form, whose `required` sits beside no `properties`.)
    expect(strictProblems("nullable variants", listed).filter((problem) => !problem.includes("strictRequired"))).toEqual([]);
    const validate = new Ajv2020({ strict: false }).compile(listed);
    for (const [value, valid] of [
      [{ body: null }, true],
      [{ body: { a: "x" } }, true],
      [{ body: {} }, false],
    ] as const)
      expect(validate(value)).toBe(valid);
  });

  it("under strict, is the document's schema (said portably), which refuses a result that strays", () => {
    const listed = listedOutputSchema(tool(documented, "strict"))?.schema as object;
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(listed);
    expect(validate({ id: 1, note: null })).toBe(true);
    expect(validate({ id: "x" })).toBe(false);
    expect(validate({ id: 1, stray: true })).toBe(false);
  });
});

describe("tool schemas clients accept silently", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  for (const [server, tools] of [
    ["Memos", memosTools],
    ["kitchen-sink", kitchenSinkTools],
  ] as const) {
    it(`every input and output schema of the ${server} server compiles under strict Ajv with formats, without a warning`, () => {
      const problems = (tools as readonly ToolDefinition[]).flatMap((tool) => [
        ...strictProblems(`${tool.name} input`, tool.inputSchema),
        ...strictProblems(`${tool.name} output`, tool.outputSchema ?? {}),
        ...strictProblems(`${tool.name} listed output`, listedOutputSchema(tool)?.schema ?? {}),
      ]);
      expect(problems).toEqual([]);
    });
  }

  it("the SDK client with its default validator prints nothing while listing and calling the committed Memos server", async () => {
    const printed: unknown[][] = [];
    for (const method of ["log", "warn", "error", "info", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        printed.push(args);
      });
    }
    const upstream = await startUpstream();
    const server = await startMemosServer(upstream.url);
    const client = new Client({ name: "default-client", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(17);
      await client.callTool({ name: "memo_delete_memo", arguments: { memo: "abc" } });
    } finally {
      await client.close();
      await server.close();
      await upstream.close();
    }
    expect(printed).toEqual([]);
  });
});
