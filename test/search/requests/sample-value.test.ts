import { describe, expect, it } from "vitest";
import type { JsonObject, OpenApiDocument } from "../../../openapi/document/index.js";
import { readSchema, SchemaCatalog } from "../../../openapi/model/index.js";
import { SampleBuilder, type Unresolved } from "../../../search/requests/index.js";

const document: OpenApiDocument = { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {} };

describe("request samples of an allOf", () => {
  it("merge the parts' own keys, a `__proto__` property kept as a property", () => {
    const parts = [
      { type: "object", properties: { a: { type: "string", example: "x" } } },
      JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "object", "example": {"polluted": true}}}}'),
    ];
    const sample = new SampleBuilder(new SchemaCatalog(document), []).build(readSchema({ allOf: parts }));
    expect(Object.getPrototypeOf(sample)).toBe(Object.prototype);
    expect(JSON.stringify(sample)).toBe('{"a":"x","__proto__":{"polluted":true}}');
  });

  it("merge 150,000 parts, more than a call's arguments may hold", () => {
    const parts = Array.from({ length: 150_000 }, (_, index) => ({ type: "object", example: { [`k${index}`]: index } }));
    const sample = new SampleBuilder(new SchemaCatalog(document), []).build(readSchema({ allOf: parts }));
    expect(Object.keys(sample ?? {})).toHaveLength(150_000);
  });

  it("stop at the first part that is not an object: its sample, or the first part's, stands", () => {
    const unresolved: Unresolved[] = [];
    const parts: JsonObject[] = [
      { type: "object", example: { a: 1 } },
      { type: "string" },
      { type: "object", properties: { b: { type: "string" } } },
    ];
    const sample = new SampleBuilder(new SchemaCatalog(document), unresolved).build(readSchema({ allOf: parts }));
    expect(sample).toEqual({ a: 1 });
    expect(unresolved.map((each) => each.reason)).toEqual(["no example or default (string)"]);
  });
});
