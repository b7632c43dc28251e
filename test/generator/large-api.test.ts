import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describeOperation, LISTING_LIMITS, listing, type ToolDefinition, toolsListOf, toolsModeList } from "oapi-mcp-gen-runtime";
import { discoveryToolDefinitions } from "oapi-mcp-gen-runtime/discovery";
import { beforeAll, describe, expect, it } from "vitest";
import { tools as memosTools } from "../../generated/index.js";
import { readConfigFile } from "../../generator/config/index.js";
import { type GenerationResult, generateFromDocument } from "../../generator/generate.js";
import { toolDefinition } from "../../templates/tool-module.js";
import { tools as cmsTools } from "../fixtures/cms/generated/index.js";
import { ROOT } from "../helpers/cli.js";
import { driveEveryTool } from "../helpers/drive-tools.js";
import { writeAndTypecheck } from "../helpers/generated-tree.js";
import { portabilityFindings } from "../helpers/portability.js";
import { strictProblems } from "../helpers/schema-dialects.js";

/** The text of a describe_operation answer, parsed. */
function answerOf(tool: ToolDefinition, at?: string): { bytes: number; value: Record<string, unknown>; isError: boolean } {
  const result = describeOperation(tool, at);
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
  return {
    bytes: Buffer.byteLength(JSON.stringify(result)),
    value: result.isError ? {} : JSON.parse(text),
    isError: result.isError === true,
  };
}

/** Every `at` the notes of a value name. */
function pointers(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/describe_operation at \\"([^"\\]+)\\"/g)].map((match) => match[1] ?? "");
}

describe("Stripe's 18 everyday operations (test/fixtures/stripe/everyday.json)", () => {
  let generated: GenerationResult;
  let definitions: ToolDefinition[];

  beforeAll(async () => {
    const document = JSON.parse(await readFile(join(ROOT, "test/fixtures/stripe/everyday.json"), "utf8"));
    generated = await generateFromDocument(document, await readConfigFile(join(ROOT, "test/fixtures/stripe/everyday.config.yaml")));
    definitions = generated.tools.map(toolDefinition);
  }, 120_000);

  it("fit 40,000 tokens of tools/list in tools mode, each tool within about 14 KB, HTML descriptions read as Markdown", () => {
    expect(generated.mode).toBe("tools");
    expect(generated.tools).toHaveLength(18);
    expect(generated.toolsList.tokens).toBeLessThanOrEqual(40_000);
    // The size reported is the list the server gives: the 18 tools and describe_operation, which their notes name.
    const { tools: served, describes } = toolsModeList(definitions, "stripe");
    expect(describes).toBe(true);
    expect(served.map((tool) => tool.name)).toContain("describe_operation");
    expect(Buffer.byteLength(JSON.stringify({ tools: served }))).toBe(generated.toolsList.bytes);
    expect(generated.files.get("README.md")).toContain("`tools/list` also shows `describe_operation`");
    expect(generated.warnings.join("\n")).not.toMatch(/tools\/list has/);
    for (const definition of definitions) {
      const { tool } = listing(definition);
      expect(Buffer.byteLength(JSON.stringify(tool)), definition.name).toBeLessThanOrEqual(LISTING_LIMITS.tool + 1_000);
      expect(tool.description, definition.name).not.toMatch(/<\/?p>|<a href/);
      expect(portabilityFindings(tool.inputSchema), definition.name).toEqual([]);
      expect(portabilityFindings(tool.outputSchema), definition.name).toEqual([]);
    }
    expect(definitions.find((definition) => definition.name === "post_customers")?.title).toBe("Creates a new customer object");
    // Stripe's GETs declare an optional, empty, closed form body: nothing to send is no argument.
    const list = definitions.find((definition) => definition.name === "get_customers") as ToolDefinition;
    expect(Object.keys(list.inputSchema.properties as object)).not.toContain("body");
    expect(list.http.body).toBeUndefined();
  });

  it("generate a tree that type-checks under strict", async () => {
    const folder = join(ROOT, ".tmp/large-api-stripe");
    await rm(folder, { recursive: true, force: true });
    expect(await writeAndTypecheck(folder, generated.files)).toBe("");
    await rm(folder, { recursive: true, force: true });
  }, 120_000);

  it("describe post_customers in at most 16 KB in all, and page into every part its notes name", () => {
    const tool = definitions.find((definition) => definition.name === "post_customers") as ToolDefinition;
    const whole = answerOf(tool);
    expect(whole.bytes).toBeLessThanOrEqual(16_384);
    const notes = pointers(whole.value);
    expect(notes.length).toBeGreaterThan(0);
    for (const at of notes) {
      const part = answerOf(tool, at);
      expect(part.isError, at).toBe(false);
      expect(part.value.at).toBe(at);
      expect(part.bytes, at).toBeLessThanOrEqual(16_384);
    }
    expect(answerOf(tool, "result.no_such_field").isError).toBe(true);
  });

  it("every tool, random JSON of any shape from the upstream: the SDK client never throws, no result is an error", async () => {
    const report = await driveEveryTool(definitions, { seed: 452, rounds: 2 });
    expect(report.calls).toBe(36);
    expect(report.throws).toEqual([]);
    expect(report.errors).toEqual([]);
    expect(report.refused).toEqual([]);
    expect(report.sent).toBe(36);
  }, 120_000);
});

describe("listings and describe_operation of real documents", () => {
  for (const [label, tools] of [
    ["Memos", memosTools],
    ["CMS", cmsTools],
  ] as const) {
    it(`${label}: every listing is portable and compiles under strict Ajv, every note's at resolves`, () => {
      for (const tool of tools as readonly ToolDefinition[]) {
        const { tool: listed } = listing(tool);
        expect(portabilityFindings(listed.inputSchema), tool.name).toEqual([]);
        expect(portabilityFindings(listed.outputSchema), tool.name).toEqual([]);
        expect(strictProblems(tool.name, listed.inputSchema)).toEqual([]);
        const whole = answerOf(tool);
        expect(whole.isError).toBe(false);
        for (const at of pointers(whole.value)) expect(answerOf(tool, at).isError, `${tool.name} at ${at}`).toBe(false);
      }
      expect(toolsListOf(tools as readonly ToolDefinition[])).toHaveLength(tools.length);
    });
  }
});

describe("discovery's own tools", () => {
  it("are portable too: search_operations, describe_operation, call_operation", () => {
    for (const tool of discoveryToolDefinitions("Memos", memosTools)) {
      expect(portabilityFindings(tool.inputSchema), tool.name).toEqual([]);
      expect(portabilityFindings(tool.outputSchema), tool.name).toEqual([]);
    }
  });
});

describe("every 2xx reaches the MCP SDK client as a success with structured content", () => {
  for (const [label, tools] of [
    ["Memos", memosTools],
    ["CMS", cmsTools],
  ] as const) {
    it(`${label}: every tool, three rounds of random JSON of any shape: 0 throws, 0 isError`, async () => {
      const report = await driveEveryTool(tools as readonly ToolDefinition[], { seed: 29, rounds: 3 });
      expect(report.calls).toBe(tools.length * 3);
      expect(report.throws).toEqual([]);
      expect(report.errors).toEqual([]);
      expect(report.refused).toEqual([]);
      expect(report.sent).toBe(tools.length * 3);
    }, 60_000);
  }

  it("under output.validate: strict the same results are refused (the drive can fail)", async () => {
    const strict = memosTools.map((tool) => ({ ...tool, outputValidation: "strict" as const })) as ToolDefinition[];
    const report = await driveEveryTool(strict, { seed: 29, rounds: 1 });
    expect(report.errors.length + report.throws.length).toBeGreaterThan(0);
  }, 60_000);
});
