import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { generateFromDocument } from "../../../generator/generate.js";
import { type TrimmedSchema, trimSchema } from "../../../generator/schema/index.js";
import type { JsonObject, OpenApiDocument } from "../../../openapi/document/index.js";
import { dialectProblems } from "../../helpers/schema-dialects.js";

const note = "x".repeat(2_000);

/** Root → A → B → C → D, each definition about 2 KB, D referring back to A. */
function chain(): JsonObject {
  const def = (next: string) => ({
    type: "object",
    description: note,
    properties: { name: { type: "string" }, next: { $ref: `#/$defs/${next}` } },
    required: ["name"],
  });
  return {
    type: "object",
    properties: { head: { $ref: "#/$defs/A" } },
    $defs: { A: def("B"), B: def("C"), C: def("D"), D: def("A") },
  };
}

const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("schema size limit", () => {
  it("leaves a schema that fits, or any schema when the limit is 0, untouched", () => {
    expect(trimSchema(chain(), byteLength(chain()))).toBeUndefined();
    expect(trimSchema(chain(), 0)).toBeUndefined();
  });

  it("expands $defs to the deepest level that fits, keeps the next as typed placeholders and drops the rest", () => {
    const trimmed = trimSchema(chain(), 5_000) as TrimmedSchema;
    expect(trimmed).toBeDefined();
    const defs = trimmed.schema.$defs as Record<string, JsonObject>;
    expect(Object.keys(defs)).toEqual(["A", "B", "C"]);
    expect(defs.A).toEqual(chain().$defs && (chain().$defs as JsonObject).A);
    expect(defs.B?.description).toBe(note);
    expect(defs.C).toEqual({
      type: "object",
      description: "Not expanded: this tool's schema is limited to 5000 bytes (schemas.maxBytes).",
    });
    expect(trimmed).toMatchObject({ collapsed: 1, dropped: 1 });
    expect(trimmed.bytes).toBe(byteLength(trimmed.schema));
    expect(trimmed.bytes).toBeLessThanOrEqual(5_000);
    expect(trimmed.schema.properties).toEqual(chain().properties);
  });

  it("keeps the root whole even when it alone is over the limit, and the result compiles in both dialects", () => {
    const trimmed = trimSchema(chain(), 100) as TrimmedSchema;
    expect(Object.keys(trimmed.schema.$defs as JsonObject)).toEqual(["A"]);
    expect(dialectProblems("trimmed", trimmed.schema as JsonObject)).toEqual([]);
  });

  it("follows references under properties named like data keywords (Microsoft Graph's `default`)", () => {
    const schema = {
      type: "object",
      properties: { default: { $ref: "#/$defs/A" } },
      $defs: {
        A: { type: "object", description: note, properties: { enum: { $ref: "#/$defs/B" } } },
        B: { type: "string", description: note },
      },
    };
    const trimmed = trimSchema(schema, 3_000) as TrimmedSchema;
    expect(Object.keys(trimmed.schema.$defs as JsonObject)).toEqual(["A", "B"]);
    expect((trimmed.schema.$defs as Record<string, JsonObject>).B).toMatchObject({
      type: "string",
      description: expect.stringMatching(/^Not expanded/),
    });
    expect(dialectProblems("trimmed", trimmed.schema as JsonObject)).toEqual([]);
  });

  it("only loosens validation: whatever the whole schema accepts, the trimmed one accepts", () => {
    const ajv = new Ajv2020({ strict: false });
    const whole = ajv.compile(chain());
    const cut = ajv.compile(trimSchema(chain(), 5_000)?.schema as JsonObject);
    const deep = { head: { name: "a", next: { name: "b", next: { name: "c", next: { name: "d", next: { name: "a2" } } } } } };
    expect(whole(deep)).toBe(true);
    expect(cut(deep)).toBe(true);
    const badDeep = { head: { name: "a", next: { name: "b", next: { name: 3 } } } };
    expect(whole(badDeep)).toBe(false);
    expect(cut(badDeep)).toBe(true);
    expect(cut({ head: { next: {} } })).toBe(false);
  });

  it("applies the configured limit in generation and says so in one warning", async () => {
    const document: OpenApiDocument = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      servers: [{ url: "https://api.example.com" }],
      paths: Object.fromEntries(
        ["one", "two"].map((name) => [
          `/${name}`,
          {
            get: {
              operationId: `get_${name}`,
              responses: { 200: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/A" } } } } },
            },
          },
        ]),
      ),
      components: {
        schemas: Object.fromEntries(
          ["A", "B", "C", "D"].map((name, index, all) => [
            name,
            { type: "object", description: note, properties: { next: { $ref: `#/components/schemas/${all[(index + 1) % 4]}` } } },
          ]),
        ),
      },
    };
    const config = { server: { name: "t" }, select: { all: true }, schemas: { maxBytes: 5_000 } };
    const trimmed = await generateFromDocument(document, config);
    expect(trimmed.warnings).toEqual([
      "schemas.maxBytes: 2 tool(s) had schemas over 5000 bytes (get_one, get_two); their deeper $defs are placeholders " +
        "that admit any value. Raise schemas.maxBytes, or set 0 to keep every schema whole",
    ]);
    for (const tool of trimmed.tools) expect(byteLength(tool.outputSchema)).toBeLessThanOrEqual(5_000);
    expect(trimmed.files.get("schemas.ts")).toContain("Not expanded");
    const whole = await generateFromDocument(document, { ...config, schemas: { maxBytes: 0 } });
    expect(whole.warnings).toEqual([]);
    expect(Object.keys(whole.tools[0]?.outputSchema.$defs as JsonObject)).toEqual(["B", "C", "D", "A"].sort());
  });
});
