import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { listedOutputSchema, type ToolDefinition, tolerantSchema } from "oapi-mcp-gen-runtime";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tools as memosTools } from "../generated/index.js";
import { tools as kitchenSinkTools } from "./fixtures/kitchen-sink/generated/index.js";
import { startMemosServer } from "./helpers/memos-server.js";
import { strictProblems } from "./helpers/schema-dialects.js";
import { startUpstream } from "./helpers/upstream.js";

describe("the tolerant output schema", () => {
  it("admits null for values only, drops required, value constraints and sample values, and keeps the root an object", () => {
    const documented = {
      type: "object",
      required: ["id"],
      properties: {
        id: { type: "integer", minimum: 1, examples: [42] },
        examples: { type: "string", example: "a property named examples stays" },
        tags: { type: "array", items: { type: "string", enum: ["a"] } },
        owner: { $ref: "#/$defs/person" },
      },
      allOf: [{ type: "object", properties: { extra: { type: "string", format: "date-time" } } }],
      additionalProperties: false,
      $defs: { person: { type: "object", properties: { name: { type: "string" } } } },
    };
    expect(tolerantSchema(documented)).toEqual({
      type: "object",
      properties: {
        id: { type: ["integer", "null"] },
        examples: { type: ["string", "null"] },
        tags: { type: ["array", "null"], items: { type: ["string", "null"], enum: ["a", null] } },
        owner: { anyOf: [{ $ref: "#/$defs/person" }, { type: "null" }] },
      },
      allOf: [{ type: "object", properties: { extra: { type: ["string", "null"] } } }],
      $defs: { person: { type: "object", properties: { name: { type: ["string", "null"] } } } },
    });
  });

  it("lists definitions that then say the same thing once, their references renamed, and drops readOnly", () => {
    const person = { type: "object", properties: { name: { type: "string", readOnly: true }, boss: { $ref: "#/$defs/nullable-person" } } };
    const documented = {
      type: "object",
      properties: {
        author: { $ref: "#/$defs/person" },
        editor: { $ref: "#/$defs/nullable-person" },
        team: { type: "array", items: { $ref: "#/$defs/team" } },
      },
      $defs: {
        person,
        "nullable-person": { ...person, type: ["object", "null"] },
        team: { type: "object", properties: { lead: { $ref: "#/$defs/nullable-person" } } },
      },
    };
    const listed = tolerantSchema(documented);
    const orNull = (ref: string) => ({ anyOf: [{ $ref: ref }, { type: "null" }] });
    expect(listed).toEqual({
      type: "object",
      properties: {
        author: orNull("#/$defs/person"),
        editor: orNull("#/$defs/person"),
        team: { type: ["array", "null"], items: orNull("#/$defs/team") },
      },
      $defs: {
        person: { type: "object", properties: { name: { type: ["string", "null"] }, boss: orNull("#/$defs/person") } },
        team: { type: "object", properties: { lead: orNull("#/$defs/person") } },
      },
    });
    // What the document admits, the listed schema admits (null included wherever a definition is used).
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(listed);
    for (const value of [{ author: null, editor: { name: "a", boss: null } }, { team: [{ lead: null }, null] }, {}]) {
      expect(validate(value)).toBe(true);
    }
    expect(validate({ author: { name: 1 } })).toBe(false);
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
        ...strictProblems(`${tool.name} listed output`, listedOutputSchema(tool) ?? {}),
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
