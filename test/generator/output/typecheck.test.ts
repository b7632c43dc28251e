import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/cli.js";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

describe("type checking", () => {
  it("compiles generated/ with the runtime, the generator and the tests under strict", () => {
    const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit"], { cwd: ROOT, encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
