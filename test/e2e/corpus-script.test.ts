import { spawnSync } from "node:child_process";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const DIR = join(ROOT, ".tmp/corpus-script");
const SCRIPT = join(ROOT, "dist/scripts/corpus.js");

/** Runs the built corpus script over DIR and returns its exit code and JSON report. */
async function corpus(...args: string[]) {
  const report = join(DIR, "..", "corpus-script-report.json");
  const run = spawnSync(process.execPath, [SCRIPT, "--dir", DIR, "--concurrency", "1", "--report", report, ...args], {
    encoding: "utf8",
    env: { ...process.env, OAPI_MCP_GEN_WORKERS: "0" },
  });
  return { status: run.status, stdout: run.stdout, report: JSON.parse(await readFile(report, "utf8")) };
}

describe("the corpus script", () => {
  it("ends each document OK, in a one-line error, or as a crash (a time-out), and fails only on crashes", async () => {
    await rm(DIR, { recursive: true, force: true });
    await mkdir(join(DIR, "memos"), { recursive: true });
    await copyFile(join(ROOT, "examples/memos/openapi.yaml"), join(DIR, "memos/openapi.yaml"));
    await writeFile(join(DIR, "broken.yaml"), "openapi: 3.0.0\ninfo: [unclosed\n");
    await writeFile(join(DIR, "empty.json"), JSON.stringify({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {} }));
    const run = await corpus();
    expect(run.status).toBe(0);
    expect(run.report.summary).toMatchObject({ documents: 3, ok: 1, error: 2, crash: 0 });
    const byFile = Object.fromEntries(
      (run.report.verdicts as { file: string; outcome: string; message?: string }[]).map((v) => [v.file.slice(DIR.length + 1), v]),
    );
    expect(byFile["memos/openapi.yaml"]).toMatchObject({ outcome: "ok", tools: 73 });
    for (const file of ["broken.yaml", "empty.json"]) {
      expect(byFile[file]?.outcome).toBe("error");
      expect(byFile[file]?.message).toMatch(/^[^\n]+$/);
    }
    const hurried = await corpus("--timeout", "0.001");
    expect(hurried.status).toBe(1);
    expect(hurried.report.summary.crash).toBeGreaterThan(0);
    expect(hurried.stdout).toMatch(/CRASH .* timed out after 0\.001 s/);
  });
});
