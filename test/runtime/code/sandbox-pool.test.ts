import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { SandboxPool } from "oapi-mcp-gen-runtime/code";
import { describe, expect, it } from "vitest";

const LIMITS = { timeoutMs: 1_000, memoryBytes: 16 * 1_048_576, maxOutputBytes: 65_536, maxArgumentBytes: 65_536, maxCalls: 10 };

describe("the sandbox pool", () => {
  it("refuses a run whose worker never gets ready, within the start-up budget, and gives its place to the next", async () => {
    // A worker that stays alive and never says it is ready (an engine whose load hangs).
    const scratch = await mkdtemp(join(tmpdir(), "oapi-sandbox-"));
    const module = join(scratch, "never-ready.mjs");
    await writeFile(module, 'import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => {});\n');
    const pool = new SandboxPool(
      { maxRuns: 1, maxQueued: 4, perCaller: 1, keepWarm: 0, memoryMb: 16, startupMs: 300 },
      pathToFileURL(module),
    );
    const ticket = { caller: "one", gone: new AbortController().signal };
    const request = { code: "1", names: [], limits: LIMITS };
    const noCalls = async () => ({ ok: false as const, message: "no calls" });
    try {
      // The second run waits in line behind the first: it starts only once the first gave its place back.
      const outcomes = await Promise.all([pool.run(request, noCalls, ticket), pool.run(request, noCalls, ticket)]);
      expect(outcomes.map((outcome) => (outcome.ok ? "ran" : outcome.message))).toEqual([
        "the sandbox did not start",
        "the sandbox did not start",
      ]);
    } finally {
      await pool.close();
      await rm(scratch, { recursive: true, force: true });
    }
    // Two 300 ms budgets one after the other: well inside this test's time-out, which the default budget (15 s) is not.
  }, 20_000);
});
