import { spawnSync } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type RunningServer, silentLogger, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterAll, describe, expect, it } from "vitest";
import { generateFromFile } from "../../generator/generate.js";
import { writeOutput } from "../../generator/output.js";
import { ROOT } from "../helpers/cli.js";
import { clientLimitProblems } from "../helpers/client-limits.js";
import { connectClient, testEnvironment } from "../helpers/memos-server.js";
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
    const result = await generateFromFile(GITHUB, { server: { name: "github" }, select: { all: true } });
    expect(result.tools.length).toBe(1223);
    await writeOutput(OUT, result.files);
    await writeFile(
      join(OUT, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.json",
        compilerOptions: { noEmit: true, rootDir: "../.." },
        include: [".", "../../runtime"],
      }),
    );
    const tsc = spawnSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", join(OUT, "tsconfig.json")], {
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
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
    expect(tools).toHaveLength(1223);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(1223);
    expect(clientLimitProblems(tools)).toEqual([]);
    for (const tool of tools) expect(tool.name).toMatch(/^[a-z0-9_]{1,64}$/);
    // Every schema a client sees compiles under strict Ajv (draft-07 and 2020-12, with formats) without a warning.
    expect(distinctSchemas(tools).flatMap(({ label, schema }) => strictProblems(label, schema))).toEqual([]);
  }, 600_000);
});
