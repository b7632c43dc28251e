import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { type RunningServer, silentLogger, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterAll, describe, expect, it } from "vitest";
import { generateFromFile } from "../../generator/generate.js";
import { writeOutput } from "../../generator/output/index.js";
import { type PrismMock, startPrism } from "../../scripts/prism.js";
import { ROOT } from "../helpers/cli.js";
import { connectClient, testEnvironment } from "../helpers/memos-server.js";
import { sampleArguments } from "../helpers/sample-arguments.js";
import { DOCKER, GALAXY } from "../helpers/search-server.js";

/** Prism's request-validation complaints printed after `from`. */
function requestViolations(prism: PrismMock, from: number): string[] {
  return prism
    .output()
    .slice(from)
    .split("\n")
    .filter((line) => line.includes("[VALIDATOR] ✖") && /Request|request\./.test(line) && !line.includes("Violation:"))
    .map((line) => line.replace(/^.*error\s+/, ""));
}

const CASES = [
  {
    name: "docker",
    spec: DOCKER,
    config: { server: { name: "docker" }, select: { all: true } },
    sample: [
      "container_list",
      "container_create",
      "container_inspect",
      "container_logs",
      "image_list",
      "image_create",
      "network_create",
      "volume_create",
      "volume_list",
      "system_info",
      "container_update",
      "exec_start",
    ],
    env: {},
  },
  {
    name: "galaxy",
    spec: GALAXY,
    config: { server: { name: "galaxy" }, select: { all: true } },
    // Not create_celestial_body: Prism requires the read-only `id` inside oneOf branches (it drops read-only
    // properties from requests only outside oneOf), so a correct request is reported as invalid.
    sample: ["get_all_data", "get_planet", "create_planet", "update_planet", "delete_planet", "upload_image", "create_user", "get_token"],
    // Only the cookie key is configured, so every operation under the global alternatives uses the cookie.
    env: { API_KEY_COOKIE_API_KEY: "cookie-secret" } as Record<string, string>,
  },
  {
    name: "galaxy-bearer",
    spec: GALAXY,
    config: { server: { name: "galaxy" }, select: { tags: ["Authentication"] } },
    // getMe accepts basic, OAuth2 or bearer only.
    sample: ["get_me"],
    env: { BEARER_AUTH_TOKEN: "bearer-secret" },
  },
];

describe.each(
  CASES as {
    name: string;
    spec: string;
    config: object;
    sample: string[];
    env: Record<string, string>;
    args?: Record<string, Record<string, unknown>>;
  }[],
)("generated $name tools against a Prism mock that validates requests", ({ name, spec, config, sample, env, args: fixed }) => {
  const out = join(ROOT, `.tmp/prism-${name}`);
  let prism: PrismMock | undefined;
  let server: RunningServer | undefined;
  let client: Client | undefined;

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await prism?.stop();
    await rm(out, { recursive: true, force: true });
  });

  it("sends requests Prism accepts for a sample of operations", async () => {
    const result = await generateFromFile(spec, config as Parameters<typeof generateFromFile>[1]);
    await writeOutput(out, result.files);
    const generated = (await import(/* @vite-ignore */ join(out, "index.ts"))) as {
      tools: readonly ToolDefinition[];
      auth: import("oapi-mcp-gen-runtime").AuthDefinition;
    };
    prism = await startPrism(spec);
    server = await startServer({
      identity: { name, version: "0.0.0" },
      tools: generated.tools,
      auth: generated.auth,
      env,
      log: silentLogger,
      environment: testEnvironment(prism.url, { timeoutMs: 10_000, maxResponseBytes: 4e6, maxRequestBytes: 4e6, maxUploadBytes: 4e6 }),
    });
    client = await connectClient(server.url);
    const { tools } = await client.listTools();
    const problems: string[] = [];
    for (const toolName of sample) {
      const tool = tools.find((candidate) => candidate.name === toolName);
      expect(tool, toolName).toBeDefined();
      const args = fixed?.[toolName] ?? sampleArguments(tool?.inputSchema as Record<string, unknown>);
      const before = prism.output().length;
      const called = await client.request({ method: "tools/call", params: { name: toolName, arguments: args } }, CallToolResultSchema);
      // Prism's own examples stray from Docker's schemas; such successes come back as text (the raw result, so the
      // SDK's structured-content check does not throw).
      await new Promise((resolve) => setTimeout(resolve, 30));
      const text = (called.content as { text?: string }[])[0]?.text ?? "";
      if (/^Invalid arguments/.test(text)) problems.push(`${toolName}: our own validation refused ${JSON.stringify(args)}: ${text}`);
      if (/^(Unauthorized|Forbidden)/.test(text)) problems.push(`${toolName}: ${text}`);
      for (const violation of requestViolations(prism, before))
        problems.push(`${toolName}: ${violation} (args ${JSON.stringify(args).slice(0, 200)})`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
