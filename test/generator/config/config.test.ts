import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserError } from "../../../generator/base/index.js";
import { parseConfig, readConfigFile, resolveConfig } from "../../../generator/config/index.js";
import { CONFIG_TYPES, configTypesText } from "../../../scripts/config-types.js";
import { VALIDATORS } from "../../../scripts/validators.js";

function problemsOf(value: unknown): readonly string[] {
  try {
    parseConfig(value, "cfg");
  } catch (error) {
    if (error instanceof UserError) return error.problems;
    throw error;
  }
  return [];
}

describe("config validation", () => {
  it("accepts a minimal config and applies every default the schema declares, once", () => {
    const written = { server: { name: "x" }, operations: ["a"] };
    const resolved = parseConfig(structuredClone(written));
    expect(resolved).toEqual({
      server: { name: "x", version: "0.1.0" },
      operations: ["a"],
      pathPrefixes: {},
      parameters: {},
      overrides: {},
      auth: { apply: "declared", mode: "passthrough", prefer: "server", passthrough: { authorization: true, headers: [] } },
      schemas: { maxBytes: 65536, closedBodies: false },
      output: { validate: "warn" },
      externalRefs: { outsideFolder: false, urls: false },
      mode: "auto",
      discovery: { alwaysList: [] },
      code: false,
    });
    expect(parseConfig(structuredClone(resolved))).toEqual(resolved);
    expect(resolveConfig(written)).toEqual(resolved);
    expect(written).toEqual({ server: { name: "x" }, operations: ["a"] });
  });

  it("keeps its TypeScript types derived from the schema (npm run generate:config-types rewrites them)", async () => {
    expect(await configTypesText()).toBe(await readFile(CONFIG_TYPES, "utf8"));
  });

  it("keeps the validators compiled ahead of time current with their schemas and this Ajv (npm run generate:validators)", async () => {
    expect(VALIDATORS.map((validator) => validator.file.slice(validator.file.indexOf("generator/")))).toEqual([
      "generator/config/config-check.ts",
      "generator/schema/meta-draft-07.ts",
      "generator/schema/meta-2020-12.ts",
    ]);
    for (const validator of VALIDATORS) expect(await validator.text(), validator.file).toBe(await readFile(validator.file, "utf8"));
  });

  it("reports every problem at once, with suggestions for unknown keys", () => {
    expect(
      problemsOf({
        server: { name: "x", verison: "1" },
        operation: ["a"],
        overrides: { a: { bdoy: {}, name: "Bad Name", annotations: { readOnly: true } } },
      }),
    ).toEqual([
      'cfg: top level: unknown key "operation" (did you mean "operations"?)',
      'cfg: server: unknown key "verison" (did you mean "version"?)',
      'cfg: overrides.a: unknown key "bdoy" (did you mean "body"?)',
      'cfg: overrides.a.name: must match pattern "^[a-z0-9_]{1,64}$"',
      'cfg: overrides.a.annotations: unknown key "readOnly" (did you mean "readOnlyHint"?)',
    ]);
  });

  it("needs an allowlist or a select rule", () => {
    expect(problemsOf({ server: { name: "x" } })).toEqual([
      'cfg: top level: needs "operations" (an allowlist of operationIds) or "select"',
    ]);
  });

  it("reads YAML and JSON files and names an unreadable one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oapi-config-"));
    await writeFile(join(dir, "c.json"), JSON.stringify({ server: { name: "j" }, operations: ["x"] }));
    await writeFile(join(dir, "c.yaml"), "server:\n  name: y\noperations: [x]\n");
    await writeFile(join(dir, "bad.yaml"), "server: [\n");
    expect((await readConfigFile(join(dir, "c.json"))).server.name).toBe("j");
    expect((await readConfigFile(join(dir, "c.yaml"))).server.name).toBe("y");
    await expect(readConfigFile(join(dir, "bad.yaml"))).rejects.toThrow(/invalid YAML/);
    await expect(readConfigFile(join(dir, "missing.yaml"))).rejects.toThrow(/cannot read config \(ENOENT\)/);
  });
});
