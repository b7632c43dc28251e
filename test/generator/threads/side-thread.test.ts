import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { generateFromFile } from "../../../generator/generate.js";
import { ROOT } from "../../helpers/cli.js";
import { MEMOS_SPEC } from "../../helpers/memos-model.js";

/** The built side thread (`npm test` builds first): its worker runs only from the compiled tree. */
async function compiledSideThread(): Promise<typeof import("../../../generator/threads/index.js")> {
  return import(pathToFileURL(join(ROOT, "dist/generator/threads/index.js")).href);
}

describe("the side thread", () => {
  it("started early, makes the types, the search index and the README this thread makes", async () => {
    const { SideThread } = await compiledSideThread();
    const config = { server: { name: "memos" }, select: { all: true }, mode: "discovery" as const };
    const here = await generateFromFile(MEMOS_SPEC, config);
    const side = new SideThread();
    expect(side.warm()).toBe(true);
    try {
      const beside = await generateFromFile(MEMOS_SPEC, config, { side });
      expect([...beside.files.keys()]).toEqual([...here.files.keys()]);
      for (const [path, text] of here.files) expect(beside.files.get(path), path).toBe(text);
      expect(here.files.get("discovery.ts")).toContain("export const discovery");
    } finally {
      side.close();
    }
  }, 60_000);
});
