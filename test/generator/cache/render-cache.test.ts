import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RenderCache } from "../../../generator/cache/index.js";
import { fileDigests } from "../../../generator/output/index.js";

describe("the render cache", () => {
  let project: string;
  const out = () => join(project, "generated");
  /** The cache file (one output folder, one file besides the run manifest). */
  const cacheFile = async () => {
    const folder = join(project, "node_modules/.cache/oapi-mcp-gen");
    const [file = ""] = (await readdir(folder)).filter((name) => !name.includes("manifest"));
    return join(folder, file);
  };
  /** The cache file's parsed content. */
  const stored = async () => JSON.parse(await readFile(await cacheFile(), "utf8"));

  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), "render-cache-"));
    await mkdir(join(project, "node_modules"));
    await mkdir(join(project, "generated/tools"), { recursive: true });
  });
  afterEach(() => rm(project, { recursive: true, force: true }));

  it("keeps an output file's text as the file and its digest, and reads it back while the file holds it", async () => {
    const cache = await RenderCache.open(out(), project);
    cache.set("module", "export const a = 1;\n", "tools/a.ts");
    cache.set("part", "type B = 2;\n");
    const texts = new Map([["tools/a.ts", "export const a = 1;\n"]]);
    await writeFile(join(out(), "tools/a.ts"), "export const a = 1;\n");
    await cache.save({ texts, digests: fileDigests(texts) });
    const { entries } = await stored();
    expect(entries.module).toEqual({ file: "tools/a.ts", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(entries.part).toEqual({ text: "type B = 2;\n" });
    const again = await RenderCache.open(out(), project);
    expect(again.get("module")).toBe("export const a = 1;\n");
    expect(again.get("part")).toBe("type B = 2;\n");
    // A file changed since (by hand, or by a run that failed half-way) is a miss, never a wrong text.
    await writeFile(join(out(), "tools/a.ts"), "export const a = 2;\n");
    expect((await RenderCache.open(out(), project)).get("module")).toBeUndefined();
  });

  it("keeps a text whole for a run that writes no output (--check), or where the file was written otherwise", async () => {
    const cache = await RenderCache.open(out(), project);
    cache.set("module", "export const a = 1;\n", "tools/a.ts");
    expect(cache.contents()?.entries).toEqual([["module", { text: "export const a = 1;\n" }]]);
    const digests = new Map([["tools/a.ts", "0".repeat(64)]]);
    const other = { texts: new Map([["tools/a.ts", "export const a = 2;\n"]]), digests };
    expect(cache.contents(other)?.entries).toEqual([["module", { text: "export const a = 1;\n" }]]);
  });

  it("ignores an entry that points outside the output folder, and a cache of another format", async () => {
    const cache = await RenderCache.open(out(), project);
    cache.set("module", "secret\n", "tools/a.ts");
    const texts = new Map([["tools/a.ts", "secret\n"]]);
    await cache.save({ texts, digests: fileDigests(texts) });
    const file = await cacheFile();
    await writeFile(join(project, "secret.txt"), "secret\n");
    const { entries } = await stored();
    const outside = { format: 2, entries: { module: { ...entries.module, file: "../secret.txt" } } };
    await writeFile(file, JSON.stringify(outside));
    expect((await RenderCache.open(out(), project)).get("module")).toBeUndefined();
    await writeFile(file, JSON.stringify({ module: "text of the first format" }));
    expect((await RenderCache.open(out(), project)).get("module")).toBeUndefined();
  });
});
