import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { buildTools } from "../../../generator/model/index.js";
import { draft07SchemaErrors as draft07Errors, draft2020SchemaErrors as draft2020Errors } from "../../../generator/schema/index.js";
import { selectOperations } from "../../../generator/select/index.js";
import { loadMemos } from "../../helpers/memos-model.js";

/** Every schema a Memos tool of the committed config has (roots and each `$defs` entry), and schemas no meta-schema accepts. */
async function schemas(): Promise<unknown[]> {
  const { model, config } = await loadMemos();
  const tools = buildTools(model, selectOperations(model, config), config);
  const found: unknown[] = [];
  for (const tool of tools) {
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      found.push(schema, ...Object.values(schema.$defs ?? {}));
    }
  }
  return [
    ...found,
    true,
    false,
    "a string",
    { type: "strnig" },
    { properties: { x: { type: ["string", 7] } }, required: "x" },
    { items: [{ type: "string" }, 5], additionalItems: "no" },
    { $defs: { a: { minLength: -1 } }, $ref: 7, prefixItems: {} },
    { enum: [], const: undefined, dependentRequired: { a: [1] } },
  ];
}

describe("the meta-schema checks compiled ahead of time (scripts/validators.ts)", () => {
  it("find exactly what Ajv's own schema check finds, in each dialect", async () => {
    const draft07 = new Ajv({ strict: false, logger: false });
    const draft2020 = new Ajv2020({ strict: false, logger: false });
    const corpus = await schemas();
    expect(corpus.length).toBeGreaterThan(100);
    let invalid = 0;
    for (const schema of corpus) {
      for (const [ajv, check] of [
        [draft07, draft07Errors],
        [draft2020, draft2020Errors],
      ] as const) {
        const valid = ajv.validateSchema(schema as object);
        const errors = check(schema);
        expect(errors, JSON.stringify(schema)).toEqual(valid ? undefined : ajv.errors);
        if (!valid) invalid++;
      }
    }
    expect(invalid).toBeGreaterThanOrEqual(10);
  });
});
