import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/cli.js";

/** Types a one-schema document in a process of its own (test files share a worker's modules) and lists what it loaded. */
const PROGRAM = `
import { createRequire } from "node:module";
const { operationTypes } = await import(process.argv[1]);
const types = await operationTypes({
  openapi: "3.0.3",
  info: { title: "t", version: "1" },
  paths: {
    "/a": { get: { responses: { "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/A" } } } } } } },
  },
  components: { schemas: { A: { type: "object", properties: { id: { type: "integer" } } } } },
});
const loaded = Object.keys(createRequire(import.meta.url)("node:module")._cache);
process.stdout.write(JSON.stringify({ types, loaded }));
`;

describe("openapi-typescript's functions", () => {
  it("type a document without loading Redocly's whole toolkit", () => {
    const entry = pathToFileURL(join(ROOT, "dist/generator/types/index.js")).href;
    const { types, loaded }: { types: string; loaded: string[] } = JSON.parse(
      execFileSync(process.execPath, ["--input-type=module", "-e", PROGRAM, entry], { encoding: "utf8" }),
    );
    expect(types).toContain('"application/json": components["schemas"]["A"]');
    expect(loaded.some((path) => path.includes("openapi-typescript"))).toBe(true);
    expect(loaded.filter((path) => /@redocly[\\/]openapi-core[\\/]lib[\\/]index\.js$/.test(path))).toEqual([]);
  });
});
