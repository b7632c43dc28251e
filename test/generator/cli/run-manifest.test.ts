import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RunManifest } from "../../../generator/cli/index.js";

describe("the run manifest's input key", () => {
  it("changes with any file of the generator's code, in subfolders too", async () => {
    const code = await mkdtemp(join(tmpdir(), "oapi-manifest-"));
    try {
      await mkdir(join(code, "model"), { recursive: true });
      await writeFile(join(code, "index.js"), "export {};\n");
      await writeFile(join(code, "model", "tool-name.js"), "export const a = 1;\n");
      const key = async () => (await RunManifest.open(join(code, "out"), Buffer.from("{}"), "all", code, [code])).inputKey;
      const before = await key();
      expect(await key()).toBe(before);
      await writeFile(join(code, "model", "tool-name.js"), "export const a = 2;\n");
      expect(await key()).not.toBe(before);
    } finally {
      await rm(code, { recursive: true, force: true });
    }
  });
});
