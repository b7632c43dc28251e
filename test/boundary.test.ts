import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";

/** Every import specifier of every .ts file under a folder. */
async function importsUnder(folder: string): Promise<{ file: string; specifier: string }[]> {
  const found: { file: string; specifier: string }[] = [];
  for (const entry of await readdir(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)) {
      found.push({ file: file.slice(ROOT.length), specifier: (match[1] ?? match[2]) as string });
    }
  }
  return found;
}

describe("package boundaries", () => {
  it("the runtime never imports the generator, templates, ts-morph, prettier, typescript or openapi-typescript", async () => {
    const imports = await importsUnder("runtime");
    expect(imports.length).toBeGreaterThan(10);
    for (const { file, specifier } of imports) {
      expect(specifier, file).not.toMatch(/^(ts-morph|prettier|typescript|openapi-typescript|commander|yaml|swagger2openapi)(\/|$)/);
      expect(specifier, file).not.toMatch(/(generator|templates|openapi)\//);
      if (specifier.startsWith(".")) expect(specifier, file).toMatch(/^\.\/[a-z-]+\.js$/);
    }
  });

  it("generated code imports only the runtime's public entry and its own modules", async () => {
    const imports = await importsUnder("generated");
    expect(imports.length).toBeGreaterThan(17);
    for (const { file, specifier } of imports) {
      expect(specifier === "oapi-mcp-gen/runtime" || /^\.\.?\/[a-z0-9_/-]+\.js$/.test(specifier), `${file}: ${specifier}`).toBe(true);
      if (specifier.startsWith(".")) expect(specifier, file).not.toMatch(/runtime|generator|node_modules/);
    }
  });
});
