import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../../runtime/base/json-text.js";
import { createCompiler } from "../../../runtime/schema/ajv-compiler.js";
import { repeatedItems } from "../../../runtime/schema/unique-items.js";
import { seededRandom } from "../../helpers/seeded-random.js";

describe("uniqueItems, checked in linear time", () => {
  it("call two values equal exactly when JSON Schema does: key order aside", () => {
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: "x" })).toBe(canonicalJson({ a: "x", b: [1, { c: 3, d: 2 }] }));
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson("1")).not.toBe(canonicalJson(1));
    expect(repeatedItems([{ a: 1 }, "x", { a: 1 }, "y", "x"])).toEqual({ i: 4, j: 1 });
    expect(repeatedItems([1, 2, 3])).toBeUndefined();
  });

  it("accept and reject what Ajv's own check does, with its error for a repeat it compares pair by pair", () => {
    const ours = createCompiler();
    const theirs = new Ajv2020({ allErrors: true, strict: false });
    const random = seededRandom(7);
    const item = (): unknown => {
      const pick = Math.floor(random() * 6);
      const small = Math.floor(random() * 4);
      if (pick === 0) return small;
      if (pick === 1) return `s${small}`;
      if (pick === 2) return { a: small, b: [small] };
      if (pick === 3) return { b: [small], a: small };
      if (pick === 4) return [small, { c: null }];
      return small % 2 === 0;
    };
    const schema = { type: "object", properties: { list: { type: "array", uniqueItems: true } } };
    const check = ours.compile(schema);
    const reference = theirs.compile(schema);
    let repeated = 0;
    for (let round = 0; round < 400; round++) {
      const data = { list: Array.from({ length: Math.floor(random() * 8) }, item) };
      const valid = reference(data);
      expect(check(data), JSON.stringify(data)).toBe(valid);
      if (!valid) {
        repeated++;
        expect(check.errors).toEqual(reference.errors);
      }
    }
    expect(repeated).toBeGreaterThan(50);
  });

  it("check 300,000 objects in a moment: compared pair by pair, they would hold the server for half an hour", { timeout: 20_000 }, () => {
    const check = createCompiler().compile({ type: "array", uniqueItems: true, items: { type: "object" } });
    const items = Array.from({ length: 300_000 }, (_, index) => ({ id: index }));
    expect(check(items)).toBe(true);
    items.push({ id: 7 });
    expect(check(items)).toBe(false);
    expect(check.errors?.[0]?.message).toBe("must NOT have duplicate items (items ## 7 and 300000 are identical)");
  });
});
