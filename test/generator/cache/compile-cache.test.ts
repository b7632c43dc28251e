import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { compileCacheFolder, isPrivateFolder } from "../../../generator/cache/index.js";

const ROOT = join(import.meta.dirname, "../../..");
const scratch = mkdtempSync(join(tmpdir(), "oapi-compile-cache-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs Node with the built cache in `folder` turned on, printing `expression` of what requiring `request` gives. */
function loadWithCache(folder: string, request: string, expression = "loaded"): { status: number | null; stdout: string; stderr: string } {
  const module = pathToFileURL(join(ROOT, "dist/generator/cache/compile-cache.js")).href;
  const script = `const { enableCompileCache } = await import(${JSON.stringify(module)});
if (!enableCompileCache()) throw new Error("not enabled");
const { createRequire } = await import("node:module");
const loaded = createRequire(${JSON.stringify(`${ROOT}/`)})(${JSON.stringify(request)});
console.log(${expression});`;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, OAPI_MCP_GEN_COMPILE_CACHE: folder },
    encoding: "utf8",
  });
}

/** Loads TypeScript (a file large enough to be cached) with the cache in `folder`; prints its version. */
function loadTypeScript(folder: string) {
  return loadWithCache(folder, "typescript", "loaded.version");
}

/** A copy of bytes with one in every `step` changed, from `from` on. */
function flipped(bytes: Buffer, from: number, step: number): Buffer {
  const copy = Buffer.from(bytes);
  for (let at = from; at < copy.length; at += step) copy[at] = (copy[at] ?? 0) ^ 0xff;
  return copy;
}

/** The cache files under a cache folder, with their sizes and times. */
function cacheFiles(folder: string) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      const { size, mtimeMs } = statSync(path);
      return { path, size, mtimeMs };
    });
}

describe("the compile cache", () => {
  it("is found where the environment says, and can be turned off", () => {
    expect(compileCacheFolder({ OAPI_MCP_GEN_COMPILE_CACHE: "/some/where" })).toBe("/some/where");
    expect(compileCacheFolder({ OAPI_MCP_GEN_COMPILE_CACHE: "0" })).toBeUndefined();
    expect(compileCacheFolder({ NODE_DISABLE_COMPILE_CACHE: "1" })).toBeUndefined();
    expect(compileCacheFolder({})).toContain(tmpdir());
  });

  it("only uses a real folder no one else can write to", () => {
    const own = join(scratch, "own");
    mkdirSync(own, { mode: 0o700 });
    const shared = join(scratch, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const link = join(scratch, "link");
    symlinkSync(own, link);
    const file = join(scratch, "file");
    writeFileSync(file, "");
    expect(isPrivateFolder(own)).toBe(true);
    expect(isPrivateFolder(shared)).toBe(false);
    expect(isPrivateFolder(link)).toBe(false);
    expect(isPrivateFolder(file)).toBe(false);
    expect(isPrivateFolder(join(scratch, "missing"))).toBe(false);
    // A cache folder others could write to is not used: the module loads as ever, nothing is cached.
    const run = loadTypeScript(shared);
    expect(run.stderr).toContain("not enabled");
  });

  it("saves compiled code once, reads it on the next run, and recompiles from a damaged file", () => {
    const folder = join(scratch, "cache");
    const first = loadTypeScript(folder);
    expect(first.stderr).toBe("");
    expect(first.stdout).toMatch(/^\d+\.\d+/);
    const saved = cacheFiles(folder);
    expect(saved).toHaveLength(1);
    expect(saved[0]?.size).toBeGreaterThan(100_000);
    expect(statSync(folder).mode & 0o077).toBe(0);

    const second = loadTypeScript(folder);
    expect(second.stdout).toBe(first.stdout);
    // Read, not made again: the file is the one the first run wrote.
    expect(cacheFiles(folder)).toEqual(saved);

    const [damaged] = saved;
    if (!damaged) throw new Error("no cache file");
    const whole = readFileSync(damaged.path);
    // Bytes changed inside the data (V8 on Node 20 runs such data, and crashes), then a file that is not cached data.
    for (const bytes of [flipped(whole, 4096, 4096), Buffer.from("not V8's cached data")]) {
      writeFileSync(damaged.path, bytes);
      const again = loadTypeScript(folder);
      expect(again.status).toBe(0);
      expect(again.stderr).toBe("");
      expect(again.stdout).toBe(first.stdout);
      expect(readFileSync(damaged.path).length).toBeGreaterThan(100_000);
    }
  });

  it("recompiles a large module whose file changed since its code was saved, even to text of the same length", () => {
    const folder = join(scratch, "changed");
    const file = join(scratch, "large-module.cjs");
    const body = (word: string) => `module.exports = ${JSON.stringify(word)};\n/* ${"x".repeat(600 * 1024)} */\n`;
    const load = () => loadWithCache(folder, file);
    writeFileSync(file, body("first"));
    expect(load().stdout.trim()).toBe("first");
    expect(load().stdout.trim()).toBe("first");
    writeFileSync(file, body("other"));
    expect(load()).toMatchObject({ status: 0, stderr: "", stdout: "other\n" });
  });

  it("is not used where its version folder is not a private folder", () => {
    const folder = join(scratch, "blocked");
    mkdirSync(folder, { mode: 0o700 });
    writeFileSync(join(folder, `${process.arch}-v8-${process.versions.v8}`), "");
    const run = loadTypeScript(folder);
    expect(run.stderr).toContain("not enabled");
  });
});
