import { describe, expect, it } from "vitest";
import { firstSelection } from "../../../generator/select/index.js";
import type { JsonObject, OpenApiDocument } from "../../../openapi/document/index.js";
import { buildApiModel } from "../../../openapi/model/index.js";

/** An API of `count` resources, `/widget{i}s` (list and create) and `/widget{i}s/{id}`, each read naming the next resource. */
function manyResources(count: number): OpenApiDocument {
  const ok = { "200": { description: "ok" } };
  const paths: JsonObject = {};
  for (let index = 0; index < count; index++) {
    const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
    const next = { name: `widget${index + 1}_id`, in: "query", schema: { type: "string" } };
    paths[`/widget${index}s`] = {
      get: { operationId: `list${index}`, responses: ok },
      post: { operationId: `create${index}`, responses: ok },
    };
    paths[`/widget${index}s/{id}`] = { get: { operationId: `get${index}`, parameters: [id, next], responses: ok } };
  }
  return { openapi: "3.0.3", info: { title: "t", version: "1" }, paths };
}

describe("the first selection of a large API", () => {
  it("ranks 4,000 resources of 12,000 operations in a moment (each was compared with every operation: 24 s)", { timeout: 20_000 }, () => {
    const model = buildApiModel(manyResources(4000));
    const listed = model.operations.map((entry) => ({ entry, tokens: 100 }));
    const { selected, resources } = firstSelection(listed, { tools: 25, tokens: 50_000 });
    expect(selected).toHaveLength(25);
    // Each resource but the first is named by another's read: those come first, in document order.
    expect(resources.slice(0, 3)).toEqual(["widget1s", "widget2s", "widget3s"]);
  });
});
