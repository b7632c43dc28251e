import { describe, expect, it } from "vitest";
import { eachObject, type JsonObject } from "../../../openapi/document/index.js";
import { collectRefs } from "../../../openapi/references/index.js";

/** A schema whose enum holds more values than a call's arguments can (spreading it into `push` overflows the stack). */
function hugeEnum(): JsonObject {
  return {
    type: "string",
    enum: Array.from({ length: 300_000 }, (_, index) => `v${index}`),
    items: [{ $ref: "#/a" }, ...Array.from({ length: 200_000 }, () => ({ $ref: "#/b" }))],
  };
}

describe("walking every object of a document", () => {
  it("visits each object before its children, last child first, through arrays of any length", () => {
    const seen: string[] = [];
    const tree = { name: "root", children: [{ name: "first", deeper: { name: "inner" } }, { name: "second" }] };
    eachObject(tree, (node) => {
      seen.push(String(node.name));
    });
    expect(seen).toEqual(["root", "second", "first", "inner"]);
    let objects = 0;
    expect(eachObject(hugeEnum(), () => void objects++)).toBe(false);
    expect(objects).toBe(200_002);
  });

  it("stops where the visit says it found what it looked for", () => {
    let visited = 0;
    const found = eachObject(hugeEnum(), (node) => {
      visited++;
      return node.$ref === "#/b";
    });
    // The schema, then its last item.
    expect(found).toBe(true);
    expect(visited).toBe(2);
    const refs = new Set<string>();
    collectRefs(hugeEnum(), (ref) => refs.add(ref));
    expect([...refs].sort()).toEqual(["#/a", "#/b"]);
  });
});
