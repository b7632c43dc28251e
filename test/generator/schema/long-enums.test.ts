import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import {
  draft07SchemaErrors as draft07Errors,
  LONG_ENUM,
  toolSchemaProblems,
  uniqueValues,
  withShortEnums,
} from "../../../generator/schema/index.js";
import { seededRandom } from "../../helpers/seeded-random.js";

describe("long enums before the draft-07 meta-schema check", () => {
  it("drop repeats as JSON Schema sees them: key order aside", () => {
    expect(uniqueValues(["a", { x: 1, y: 2 }, "a", { y: 2, x: 1 }, null, null])).toEqual(["a", { x: 1, y: 2 }, null]);
  });

  it("leave a schema without a long enum as it is, the same object", () => {
    const schema = { type: "object", properties: { a: { enum: Array.from({ length: LONG_ENUM }, (_, i) => i) } } };
    expect(withShortEnums(schema)).toBe(schema);
  });

  it("replace a long enum at any depth, keeping the rest and the original", () => {
    const values = Array.from({ length: LONG_ENUM + 1 }, (_, i) => `v${i}`);
    const schema = { type: "object", properties: { a: { type: "string", enum: values } }, required: ["a"] };
    const shown = withShortEnums(schema);
    expect(shown).toEqual({ type: "object", properties: { a: { type: "string", enum: ["v0"] } }, required: ["a"] });
    expect(schema.properties.a.enum).toHaveLength(LONG_ENUM + 1);
    const proto = JSON.parse(`{"__proto__": {"enum": ${JSON.stringify(values)}}}`);
    const shownProto = withShortEnums(proto) as object;
    expect(Object.getPrototypeOf(shownProto)).toBe(Object.prototype);
    expect(Object.hasOwn(shownProto, "__proto__")).toBe(true);
  });

  it("are judged by the draft-07 meta-schema as the whole schema is (random long arrays under enum keys)", () => {
    const ajv = new Ajv({ strict: false, logger: false });
    const random = seededRandom(46);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const item = (i: number): unknown => pick([`s${i}`, i, { k: i, j: [i] }, [i, "x"], null, true]);
    let invalid = 0;
    for (let round = 0; round < 120; round++) {
      const length = LONG_ENUM + 1 + Math.floor(random() * 40);
      const strings = random() < 0.5;
      const values: unknown[] = Array.from({ length }, (_, i) => (strings ? `s${i}` : item(i)));
      if (random() < 0.3) values[Math.floor(random() * length)] = structuredClone(values[Math.floor(random() * length)]);
      // Where the meta-schema reads an `enum` key's array: as an enum, a string array, a schema, or not at all.
      const schema = pick([
        { enum: values },
        { type: "object", properties: { a: { items: { enum: values } } } },
        { dependencies: { enum: values } },
        { properties: { enum: values } },
        { default: { enum: values }, enum: values.slice(0, 3) },
      ]);
      const valid = ajv.validateSchema(schema);
      if (!valid) invalid++;
      expect(draft07Errors(withShortEnums(schema)) === undefined, JSON.stringify(schema).slice(0, 200)).toBe(valid);
    }
    expect(invalid).toBeGreaterThan(10);
    expect(invalid).toBeLessThan(110);
    // A string array under `dependencies` whose one non-string comes last; and one whose repeat is far from its original.
    const strings = Array.from({ length: LONG_ENUM + 1 }, (_, i) => `s${i}`);
    for (const schema of [{ dependencies: { enum: [...strings, 5] } }, { dependencies: { enum: [...strings, "s3"] } }]) {
      expect(ajv.validateSchema(schema)).toBe(false);
      expect(draft07Errors(withShortEnums(schema))).toBeDefined();
    }
  });

  it("let a tool with an enum of 200,000 values be checked in a moment, not minutes", { timeout: 20_000 }, () => {
    const values = Array.from({ length: 200_000 }, (_, i) => `value-${i}`);
    const outputSchema = { type: "object", properties: { state: { type: "string", enum: values } } };
    const tool = { name: "get_state", inputSchema: { type: "object", properties: {} }, outputSchema };
    expect(toolSchemaProblems(tool)).toEqual([]);
    const repeated = { ...outputSchema, properties: { state: { type: "string", enum: [...values, "value-7"] } } };
    expect(toolSchemaProblems({ ...tool, outputSchema: repeated }).join("\n")).toContain("must NOT have duplicate items");
  });
});
