import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { operationTypes } from "../../../generator/types/index.js";

describe("openapi-typescript's functions", () => {
  it("type a document without loading Redocly's whole toolkit", async () => {
    const types = await operationTypes({
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/a": {
          get: {
            responses: { "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/A" } } } } },
          },
        },
      },
      components: { schemas: { A: { type: "object", properties: { id: { type: "integer" } } } } },
    });
    expect(types).toContain('"application/json": components["schemas"]["A"]');
    const cache = (createRequire(import.meta.url)("node:module") as { _cache: Record<string, unknown> })._cache;
    const loaded = Object.keys(cache);
    expect(loaded.some((path) => path.includes("openapi-typescript"))).toBe(true);
    expect(loaded.filter((path) => /@redocly[\\/]openapi-core[\\/]lib[\\/]index\.js$/.test(path))).toEqual([]);
  });
});
