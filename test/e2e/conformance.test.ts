import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningServer } from "oapi-mcp-gen-runtime";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "../helpers/cli.js";
import { startMemosServer } from "../helpers/memos-server.js";
import { NODE22, nodeToolFile } from "../helpers/node-tools.js";
import { MUSEUM, startSearch } from "../helpers/search-server.js";
import { startUpstream } from "../helpers/upstream.js";

/** The suite (it needs Node 22: fs.globSync), installed with its Node by `npm run setup:node22`, apart from the project. */
const CONFORMANCE = nodeToolFile("@modelcontextprotocol/conformance", "dist/index.js");
/** The 0.2.0 alpha of the suite (an npm alias), which checks the 2026-07-28 revision. */
const CONFORMANCE_2026 = nodeToolFile("mcp-conformance-2026", "dist/index.js");
function conformance(url: URL, baseline: "generated" | "search"): Promise<{ code: number | null; output: string }> {
  const expected = join(ROOT, `conformance/${baseline}-expected-failures.yml`);
  return runSuite([CONFORMANCE, "server", "--url", url.href, "--expected-failures", expected]);
}

/** Runs the suite's CLI on Node 22 and collects what it prints. */
function runSuite(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE22 as string, args, { cwd: join(ROOT, ".tmp") });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
    child.on("error", (error) => resolve({ code: null, output: `${output}\n${error.message}` }));
  });
}

function expectApplicableScenariosPass(result: { code: number | null; output: string }): void {
  for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"]) {
    expect(result.output, scenario).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
  }
  expect(result.output).toContain("Baseline check passed: all failures are expected.");
  expect(result.code, result.output.slice(-2000)).toBe(0);
}

/** The scenarios run for 2026-07-28 and the checks that cannot pass against these servers (with reasons). */
const PLAN_2026 = parse(readFileSync(join(ROOT, "conformance/2026-07-28-not-applicable.yml"), "utf8")) as {
  scenarios: string[];
  "not-applicable": Record<string, string>;
};

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Every check of the 2026-07-28 scenarios against a server, as the suite's results files report them. */
async function checks2026(url: URL): Promise<Check[]> {
  const out = mkdtempSync(join(tmpdir(), "conformance-2026-"));
  try {
    for (const scenario of PLAN_2026.scenarios) {
      const args = [CONFORMANCE_2026, "server", "--url", url.href, "--spec-version", "2026-07-28", "--scenario", scenario, "-o", out];
      const run = await runSuite(args);
      expect(run.code, run.output.slice(-1500)).not.toBeNull();
    }
    const found: Check[] = [];
    for (const dir of readdirSync(out)) found.push(...(JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as Check[]));
    return found;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Each scenario ran, and every check passed or is named, with its reason, in the not-applicable list. */
function expect2026ChecksPass(found: Check[]): void {
  expect(new Set(found.map((check) => check.id)).size).toBeGreaterThan(20);
  for (const id of ["sep-2575-server-implements-discover", "sep-2549-tools-list-caching-hints", "sep-2243-server-reject-error-code"]) {
    expect(found.find((check) => check.id === id)?.status, id).toBe("SUCCESS");
  }
  const failing = found.filter((check) => check.status !== "SUCCESS" && check.status !== "SKIPPED");
  const unexpected = failing.filter((check) => !(check.id in PLAN_2026["not-applicable"]));
  expect(unexpected.map((check) => `${check.id}: ${check.errorMessage ?? check.status}`)).toEqual([]);
}

describe.runIf(NODE22 !== undefined)("MCP conformance suite (Node 22) with the expected-failures baseline", () => {
  it("has its Node 22 binary (npm run setup:node22)", () => {
    expect(existsSync(NODE22 as string), "run `npm run setup:node22` first").toBe(true);
  });

  it("passes every applicable scenario against the generated Memos server", async () => {
    const upstream = await startUpstream();
    let server: RunningServer | undefined;
    try {
      server = await startMemosServer(upstream.url);
      expectApplicableScenariosPass(await conformance(server.url, "generated"));
    } finally {
      await server?.close();
      await upstream.close();
    }
  }, 180_000);

  it("passes every applicable scenario against the search server", async () => {
    const server = await startSearch(["--memory", "--load", `museum=${MUSEUM}`]);
    try {
      expectApplicableScenariosPass(await conformance(server.url, "search"));
    } finally {
      await server.close();
    }
  }, 180_000);

  it("passes every applicable 2026-07-28 check against the generated Memos server", async () => {
    const upstream = await startUpstream();
    let server: RunningServer | undefined;
    try {
      server = await startMemosServer(upstream.url);
      expect2026ChecksPass(await checks2026(server.url));
    } finally {
      await server?.close();
      await upstream.close();
    }
  }, 240_000);

  it("passes every applicable 2026-07-28 check against the search server", async () => {
    const server = await startSearch(["--memory", "--load", `museum=${MUSEUM}`]);
    try {
      expect2026ChecksPass(await checks2026(server.url));
    } finally {
      await server.close();
    }
  }, 240_000);
});
