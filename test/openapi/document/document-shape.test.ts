import { describe, expect, it } from "vitest";
import { checkDocumentShape, MAX_DOCUMENT_DEPTH } from "../../../openapi/document/index.js";
import { seededRandom } from "../../helpers/seeded-random.js";

/** A value nested `depth` levels below its top, each level an object or an array as the random source picks. */
function nested(depth: number, random: () => number): unknown {
  let value: unknown = random() < 0.5 ? "leaf" : 1;
  for (let level = 0; level < depth; level++) {
    const pick = random();
    value = pick < 0.4 ? { [`k${level}`]: value, other: level } : pick < 0.8 ? [level, value] : { inner: [value] };
  }
  return value;
}

/** What a check says: nothing, or its error's message. */
function verdict(value: unknown, shared: boolean): string | undefined {
  try {
    checkDocumentShape(value, "doc.json", { maxNodes: 10_000_000, shared });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe("the document's shape check", () => {
  it("refuses a document without shared parts exactly where the full measure does, naming the same place", () => {
    const random = seededRandom(46);
    for (let run = 0; run < 200; run++) {
      const depth = MAX_DOCUMENT_DEPTH - 6 + Math.floor(random() * 12);
      const value = { openapi: "3.0.3", paths: { "/a": nested(depth, random) } };
      // The shared walk is the full measure; without shared parts and within the node budget it differs only in speed.
      expect(verdict(value, false), String(depth)).toBe(verdict(value, true));
    }
  });

  it("passes objects nested to the limit and refuses one a level past it", () => {
    // Objects only: the deepest holds the leaf, one level above it.
    const objects = (depth: number) => nested(depth, () => 0.1);
    expect(verdict(objects(MAX_DOCUMENT_DEPTH + 1), false)).toBeUndefined();
    expect(verdict(objects(MAX_DOCUMENT_DEPTH + 2), false)).toMatch(/^doc\.json: nested deeper than 400 levels at \/k401\/k400\//);
  });
});
