import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, ROOT, runCli } from "../../helpers/cli.js";

const SPEC = join(ROOT, "examples/memos/openapi.yaml");
const CONFIG = join(ROOT, "examples/memos/oapi-mcp.config.yaml");
const GENERATED = join(ROOT, "generated");
/** `node --import` this to have a process write down every module it loads (test/fixtures/loaded-modules). */
const LOADED_MODULES = join(ROOT, "test/fixtures/loaded-modules/register.mjs");

async function treeOf(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      files.set(join(entry.parentPath, entry.name).slice(dir.length + 1), await readFile(join(entry.parentPath, entry.name), "utf8"));
  }
  return files;
}

/**
 * Runs the CLI as it was run for a committed tree: from a project folder where the document and config sit at the
 * same relative paths (links to the repository's files), so the paths the output names are the same too.
 */
async function runAsCommitted(project: string, spec: string, config: string, out: string) {
  for (const file of [spec, config]) {
    await mkdir(dirname(join(project, file)), { recursive: true });
    await symlink(join(ROOT, file), join(project, file));
  }
  return runCli([spec, "--config", config, "--out", out], project);
}

describe("oapi-mcp-gen CLI", () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "oapi-cli-"));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it("writes the committed generated/ tree byte for byte into an empty folder", async () => {
    const project = join(scratch, "fresh");
    const out = join(project, "generated");
    const result = await runAsCommitted(project, "examples/memos/openapi.yaml", "examples/memos/oapi-mcp.config.yaml", "generated");
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const fresh = await treeOf(out);
    const committed = await treeOf(GENERATED);
    const toolFiles = [...fresh.keys()].filter((path) => path.startsWith("tools/")).sort();
    expect(toolFiles).toHaveLength(17);
    expect(toolFiles[0]).toBe("tools/attachment_delete_attachment.ts");
    expect([...fresh.keys()].sort()).toEqual([...committed.keys()].sort());
    for (const [path, text] of fresh) expect(text, path).toBe(committed.get(path));
  });

  it("writes the kitchen-sink fixture's golden tree byte for byte", async () => {
    const fixture = join(ROOT, "test/fixtures/kitchen-sink");
    const project = join(scratch, "kitchen");
    const out = join(project, "test/fixtures/kitchen-sink/generated");
    const result = await runAsCommitted(
      project,
      "test/fixtures/kitchen-sink/openapi.yaml",
      "test/fixtures/kitchen-sink/oapi-mcp.config.yaml",
      "test/fixtures/kitchen-sink/generated",
    );
    expect(result.status, result.stderr).toBe(0);
    const fresh = await treeOf(out);
    const committed = await treeOf(join(fixture, "generated"));
    expect([...fresh.keys()].sort()).toEqual([...committed.keys()].sort());
    for (const [path, text] of fresh) expect(text, path).toBe(committed.get(path));
  });

  it("names the config a selection came from, and why it was read, when it does not fit the document", async () => {
    const project = join(scratch, "two-apis");
    await mkdir(project, { recursive: true });
    await writeFile(join(project, "oapi-mcp.config.yaml"), await readFile(CONFIG, "utf8"));
    const result = runCli([join(ROOT, "test/fixtures/kitchen-sink/openapi.yaml"), "--out", "kitchen"], project);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: oapi-mcp\.config\.yaml: operations: "MemoService_GetMemo" is not an operationId/m);
    expect(result.stderr).toMatch(/error: oapi-mcp\.config\.yaml was read because it is in the working folder; .*--config/);
  });

  it("keeps its cache in the nearest node_modules above a folder that has none (a monorepo package)", async () => {
    const root = join(scratch, "monorepo");
    const sub = join(root, "packages", "api");
    await mkdir(join(root, "node_modules"), { recursive: true });
    await mkdir(sub, { recursive: true });
    expect(runCli([SPEC, "--config", CONFIG, "--out", "generated"], sub).status).toBe(0);
    expect(runCli([SPEC, "--config", CONFIG, "--out", "generated", "--check"], sub).stdout).toMatch(/up to date \(unchanged inputs\)/);
    expect((await readdir(join(root, "node_modules", ".cache", "oapi-mcp-gen"))).length).toBeGreaterThan(0);
  });

  it("is byte-identical when run twice, and reports nothing changed", async () => {
    const out = join(scratch, "twice");
    runCli([SPEC, "--config", CONFIG, "--out", out]);
    const first = await treeOf(out);
    const again = runCli([SPEC, "--config", CONFIG, "--out", out]);
    expect(again.stdout).toMatch(/0 files changed/);
    expect(await treeOf(out)).toEqual(first);
  });

  it("skips generation when nothing changed, loading only what comparing needs, but still notices a hand-edited file", async () => {
    const out = join(scratch, "fast");
    // Every module each run loads is written down: ES modules through a load hook, CommonJS from the require cache.
    const loadedBy = async (...more: string[]) => {
      const log = join(scratch, `loaded-${more.length}.txt`);
      const run = spawnSync(process.execPath, ["--import", LOADED_MODULES, CLI, SPEC, "--config", CONFIG, "--out", out, ...more], {
        encoding: "utf8",
        env: { ...process.env, LOADED_MODULES_LOG: log },
      });
      return { stdout: run.stdout, loaded: (await readFile(log, "utf8")).split("\n").filter(Boolean) };
    };
    const heavy = ["ts-morph", "typescript", "prettier", "openapi-typescript", "/runtime/dist/index.js", "/jose/", "@modelcontextprotocol"];
    const generating = await loadedBy();
    expect(generating.loaded.some((url) => url.includes("/ts-morph/"))).toBe(true);
    const unchanged = await loadedBy("--check");
    expect(unchanged.stdout).toMatch(/up to date \(unchanged inputs\)/);
    expect(unchanged.loaded.some((url) => url.includes("/generator/cli/command.js"))).toBe(true);
    for (const name of heavy) expect(unchanged.loaded.filter((url) => url.includes(name))).toEqual([]);
    const target = join(out, "tools/memo_get_memo.ts");
    const text = await readFile(target, "utf8");
    await writeFile(target, `${text}// edited\n`);
    expect(runCli([SPEC, "--config", CONFIG, "--out", out, "--check"]).status).toBe(1);
    expect(runCli([SPEC, "--config", CONFIG, "--out", out]).stdout).toMatch(/\(1 file changed, 0 removed;/);
    expect(await readFile(target, "utf8")).toBe(text);
  });

  it("generates again when the config's bytes change, and names a broken config rather than calling the tree current", async () => {
    const out = join(scratch, "config-bytes");
    const config = join(scratch, "config-bytes.yaml");
    const text = await readFile(CONFIG, "utf8");
    await writeFile(config, text);
    expect(runCli([SPEC, "--config", config, "--out", out]).status).toBe(0);
    expect(runCli([SPEC, "--config", config, "--out", out]).stdout).toMatch(/unchanged inputs/);
    await writeFile(config, `${text}# a comment\n`);
    const commented = runCli([SPEC, "--config", config, "--out", out]);
    expect(commented.stdout).not.toMatch(/unchanged inputs/);
    expect(commented.stdout).toMatch(/\(0 files changed, 0 removed;/);
    await writeFile(config, `${text}not_a_setting: true\n`);
    const broken = runCli([SPEC, "--config", config, "--out", out]);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain("not_a_setting");
  });

  it("generates every time from a document that references other files: the run's key never saw them", async () => {
    const folder = join(scratch, "split");
    await mkdir(folder, { recursive: true });
    const document = (schema: string) =>
      [
        "openapi: 3.0.3",
        'info: {title: split, version: "1"}',
        "paths:",
        "  /things:",
        "    get:",
        "      operationId: getThing",
        "      responses:",
        `        "200": {description: ok, content: {application/json: {schema: {$ref: "${schema}"}}}}`,
        "",
      ].join("\n");
    await writeFile(join(folder, "openapi.yaml"), document("./thing.yaml"));
    await writeFile(join(folder, "thing.yaml"), "type: object\nproperties:\n  id: {type: string}\n");
    const out = join(folder, "generated");
    expect(runCli([join(folder, "openapi.yaml"), "--out", out]).status).toBe(0);
    expect(runCli([join(folder, "openapi.yaml"), "--out", out]).stdout).not.toMatch(/unchanged inputs/);
    await writeFile(join(folder, "thing.yaml"), "type: object\nproperties:\n  id: {type: string}\n  size: {type: integer}\n");
    expect(runCli([join(folder, "openapi.yaml"), "--out", out]).stdout).not.toMatch(/\(0 files changed/);
    expect(await readFile(join(out, "api-types.ts"), "utf8")).toContain("size?: number");
  });

  it("--check exits 0 on a current tree and 1 naming the file after any byte changes", async () => {
    const out = join(scratch, "check");
    runCli([SPEC, "--config", CONFIG, "--out", out]);
    expect(runCli([SPEC, "--config", CONFIG, "--out", out, "--check"]).status).toBe(0);
    const target = join(out, "tools/memo_get_memo.ts");
    const text = await readFile(target, "utf8");
    await writeFile(target, text.replace("memo_get_memo", "memo_get_memO"));
    const stale = runCli([SPEC, "--config", CONFIG, "--out", out, "--check"]);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toMatch(/changed: tools\/memo_get_memo\.ts/);
    expect(await readFile(target, "utf8")).not.toBe(text);
  });

  it("removes stale generated files but never hand-written ones", async () => {
    const out = join(scratch, "stale");
    runCli([SPEC, "--config", CONFIG, "--out", out]);
    const header = (await readFile(join(out, "index.ts"), "utf8")).split("\n")[0];
    await writeFile(join(out, "tools/old_tool.ts"), `${header}\nexport {};\n`);
    await writeFile(join(out, "NOTES.md"), "mine\n");
    const check = runCli([SPEC, "--config", CONFIG, "--out", out, "--check"]);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/stale: tools\/old_tool\.ts/);
    runCli([SPEC, "--config", CONFIG, "--out", out]);
    const files = await treeOf(out);
    expect(files.has("tools/old_tool.ts")).toBe(false);
    expect(files.get("NOTES.md")).toBe("mine\n");
  });

  it("exits 1, writes nothing and suggests the near miss for a misspelt allowlist entry", async () => {
    const config = join(scratch, "typo.yaml");
    const text = await readFile(CONFIG, "utf8");
    await writeFile(config, text.replace("  - MemoService_ListMemos\n", "  - MemoService_ListMemo\n"));
    const out = join(scratch, "typo-out");
    const result = runCli([SPEC, "--config", config, "--out", out]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `error: ${config}: operations: "MemoService_ListMemo" is not an operationId in the document (did you mean "MemoService_ListMemos"?)\n`,
    );
    await expect(readdir(out)).rejects.toThrow(/ENOENT/);
  });

  it("reports document and usage problems in one line each, without a stack", async () => {
    const broken = join(scratch, "broken.yaml");
    await writeFile(broken, "openapi: 3.0.0\ninfo: {title: x, version: '1'}\n");
    const result = runCli([broken, "--config", CONFIG, "--out", join(scratch, "x")]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: .*broken\.yaml: missing the required "paths" object\n$/);
    const help = runCli(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/--check/);
  });
});
