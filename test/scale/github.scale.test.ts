import { spawnSync } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type DiscoveryData, type RunningServer, silentLogger, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterAll, describe, expect, it } from "vitest";
import { generateFromFile } from "../../generator/generate.js";
import { writeOutput } from "../../generator/output/index.js";
import { ROOT } from "../helpers/cli.js";
import { clientLimitProblems } from "../helpers/client-limits.js";
import { driveEveryTool } from "../helpers/drive-tools.js";
import { connectClient, testEnvironment } from "../helpers/memos-server.js";
import { portabilityFindings } from "../helpers/portability.js";
import { distinctSchemas, strictProblems } from "../helpers/schema-dialects.js";

const require = createRequire(import.meta.url);
const GITHUB = require.resolve("@octokit/openapi/generated/api.github.com.json");
const OUT = join(ROOT, ".tmp/scale-github");

/** Opt-in (`npm run test:scale`): GitHub's whole REST API as one generated server. */
describe("GitHub's document, every operation", () => {
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
    await rm(OUT, { recursive: true, force: true });
  });

  it("generates, type-checks, starts and serves a tools/list the SDK client accepts", async () => {
    const result = await generateFromFile(GITHUB, { server: { name: "github" }, select: { all: true }, mode: "tools" });
    expect(result.tools.length).toBe(1223);
    expect(await writeAndTypecheck(OUT, result.files)).toBe("");
    const generated = (await import(/* @vite-ignore */ join(OUT, "index.ts"))) as { tools: readonly ToolDefinition[] };
    server = await startServer({
      identity: { name: "github", version: "1" },
      tools: generated.tools,
      log: silentLogger,
      environment: testEnvironment(new URL("http://127.0.0.1:9"), {
        timeoutMs: 1000,
        maxResponseBytes: 1e6,
        maxRequestBytes: 1e6,
        maxUploadBytes: 1e6,
      }),
    });
    const client = await connectClient(server.url);
    const { tools } = await client.listTools();
    await client.close();
    const own = tools.filter((tool) => tool.name !== "describe_operation");
    expect(own).toHaveLength(1223);
    expect(new Set(own.map((tool) => tool.name)).size).toBe(1223);
    // What the MCP Inspector's --strict reports: nothing.
    expect(tools.flatMap((tool) => [...portabilityFindings(tool.inputSchema), ...portabilityFindings(tool.outputSchema)])).toEqual([]);
    // Every tool, against an upstream answering random JSON of any shape with a 2xx: 0 throws, 0 isError.
    const report = await driveEveryTool(generated.tools, { seed: 1223 });
    expect(report.calls).toBe(1223);
    expect(report.throws).toEqual([]);
    expect(report.errors).toEqual([]);
    // Sample arguments miss a few patterns (`^sha256:…`): those calls are refused before sending, never sent.
    expect(report.refused.length).toBeLessThan(40);
    expect(report.sent).toBe(1223 - report.refused.length);
    expect(clientLimitProblems(tools)).toEqual([]);
    for (const tool of tools) expect(tool.name).toMatch(/^[a-z0-9_]{1,64}$/);
    // Every schema a client sees compiles under strict Ajv (draft-07 and 2020-12, with formats) without a warning.
    expect(distinctSchemas(tools).flatMap(({ label, schema }) => strictProblems(label, schema))).toEqual([]);
  }, 600_000);
});

const DISCOVERY_OUT = join(ROOT, ".tmp/scale-github-discovery");

/** Writes a generated tree and type-checks it with the runtime's sources; tsc's output (empty when clean). */
async function writeAndTypecheck(out: string, files: Map<string, string>): Promise<string> {
  await writeOutput(out, files);
  const tsconfig = { extends: "../../tsconfig.json", compilerOptions: { noEmit: true, rootDir: "../.." }, include: [".", "../../runtime"] };
  await writeFile(join(out, "tsconfig.json"), JSON.stringify(tsconfig));
  const tsc = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(out, "tsconfig.json")], { encoding: "utf8" });
  return tsc.stdout + tsc.stderr;
}

describe("GitHub's document, every operation, in discovery mode", () => {
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
    await rm(DISCOVERY_OUT, { recursive: true, force: true });
  });

  it("generates, type-checks, starts, lists three tools in under 6 KB, and finds and calls operations", async () => {
    const result = await generateFromFile(GITHUB, {
      server: { name: "github", title: "GitHub" },
      select: { all: true },
      mode: "discovery",
    });
    expect(result.mode).toBe("discovery");
    expect(result.toolsList.bytes).toBeLessThan(6 * 1024);
    expect(await writeAndTypecheck(DISCOVERY_OUT, result.files)).toBe("");
    const registry = (await import(/* @vite-ignore */ join(DISCOVERY_OUT, "index.ts"))) as { tools: readonly ToolDefinition[] };
    const data = (await import(/* @vite-ignore */ join(DISCOVERY_OUT, "discovery.ts"))) as { discovery: DiscoveryData };
    server = await startServer({
      identity: { name: "github", version: "1", title: "GitHub" },
      tools: registry.tools,
      discovery: data.discovery,
      log: silentLogger,
      environment: testEnvironment(new URL("http://127.0.0.1:9"), { timeoutMs: 1000 }),
    });
    const client = await connectClient(server.url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["search_operations", "describe_operation", "call_operation"]);
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThan(6 * 1024);
    expect(clientLimitProblems(tools)).toEqual([]);
    const found = await client.callTool({ name: "search_operations", arguments: { query: "create an issue", limit: 5 } });
    expect((found.structuredContent as { results: { name: string }[] }).results.map((hit) => hit.name)).toContain("issues_create");
    const described = await client.callTool({ name: "describe_operation", arguments: { name: "repos_get" } });
    expect(Buffer.byteLength(JSON.stringify(described))).toBeLessThanOrEqual(16_384);
    const answer = JSON.parse((described.content as { text: string }[])[0]?.text ?? "") as {
      name: string;
      arguments: object;
      result?: object;
    };
    expect(
      distinctSchemas([{ name: answer.name, inputSchema: answer.arguments, outputSchema: answer.result }]).flatMap(({ label, schema }) =>
        strictProblems(label, schema),
      ),
    ).toEqual([]);
    const called = await client.callTool({
      name: "call_operation",
      arguments: { name: "repos_get", arguments: { owner: "o", repo: "r" } },
    });
    expect(called.isError).toBe(true);
    expect(JSON.stringify(called.content)).toMatch(/unreachable|connect|refused/i);
    await client.close();
  }, 600_000);
});
