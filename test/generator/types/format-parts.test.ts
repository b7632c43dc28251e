import { describe, expect, it } from "vitest";
import type { RenderCache } from "../../../generator/cache/index.js";
import { formatTypeScript, formatTypeScriptInParts, topLevelParts } from "../../../generator/layout/index.js";
import { operationTypes } from "../../../generator/types/index.js";
import { normalizeDocument, readDocumentFile } from "../../../openapi/document/index.js";

const DOCUMENTS = ["examples/memos/openapi.yaml", "test/fixtures/docker-engine/swagger.yaml", "test/fixtures/scalar-galaxy/openapi.yaml"];

describe("formatting generated types one top-level statement at a time", () => {
  it("splits before unindented exports, keeping the comment lines above one with it", () => {
    const text = "// header\nexport type a = {\n  export: 1;\n};\n/** b */\nexport type b = 2;\n// c\nexport interface c {}\n";
    expect(topLevelParts(text)).toEqual([
      "// header\nexport type a = {\n  export: 1;\n};\n",
      "/** b */\nexport type b = 2;\n",
      "// c\nexport interface c {}\n",
    ]);
    expect(topLevelParts(text).join("")).toBe(text);
  });

  it("formats the whole module when a part does not parse on its own", async () => {
    // An unindented `export` inside a template literal: the split lands inside a statement.
    const text = "export const a = `\nexport const b = 1;\n`;\nexport const c = { d: 1 };\n";
    expect(topLevelParts(text)).toHaveLength(3);
    expect(await formatTypeScriptInParts(text)).toBe(await formatTypeScript(text));
  });

  it("gives what formatting the whole module gives, and serves unchanged statements from the render cache", async () => {
    for (const path of DOCUMENTS) {
      const { document } = await normalizeDocument((await readDocumentFile(path)).document, path);
      const printed = `// Generated\n${await operationTypes(document)}`;
      expect(topLevelParts(printed).length).toBeGreaterThan(2);
      expect(await formatTypeScriptInParts(printed)).toBe(await formatTypeScript(printed));
    }
    const entries = new Map<string, string>();
    const cache = { get: (key: string) => entries.get(key), set: (key: string, text: string) => entries.set(key, text) };
    const printed = "export type a = {\n    x: 1\n};\nexport type b = {\n    y: 2\n};\n";
    expect(await formatTypeScriptInParts(printed, cache as unknown as RenderCache)).toBe(
      "export type a = {\n  x: 1;\n};\nexport type b = {\n  y: 2;\n};\n",
    );
    // The cached text of the unchanged statement is used as it is (marked here to show it); the changed one is formatted.
    for (const [key, text] of entries) if (text.includes("x: 1")) entries.set(key, "/* cached */\n");
    const changed = printed.replace("y: 2", "y: 3");
    expect(await formatTypeScriptInParts(changed, cache as unknown as RenderCache)).toBe("/* cached */\nexport type b = {\n  y: 3;\n};\n");
  });
});
