import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type CodeSettings,
  type DiscoveryData,
  type RunningServer,
  silentLogger,
  startServer,
  type ToolDefinition,
} from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { GeneratorConfig } from "../../../generator/config/index.js";
import { generateFromFile } from "../../../generator/generate.js";
import { ROOT } from "../../helpers/cli.js";
import { writeAndTypecheck } from "../../helpers/generated-tree.js";
import { connectClient, testEnvironment } from "../../helpers/memos-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

const SPEC = join(ROOT, "examples/memos/openapi.yaml");
const CONFIG = join(ROOT, "examples/memos/oapi-mcp.config.yaml");

/** The Memos example's config with code settings of a test's own. */
async function memosConfig(extra: Partial<GeneratorConfig>): Promise<GeneratorConfig> {
  return { ...(parse(await readFile(CONFIG, "utf8")) as GeneratorConfig), ...extra };
}

describe("code mode, generated", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let client: Client;
  let files: ReadonlyMap<string, string>;
  let beside: RunningServer;

  beforeAll(async () => {
    const config = await memosConfig({ mode: "code", code: { allowWrites: ["MemoService_CreateMemo"], timeoutMs: 4_000 } });
    const result = await generateFromFile(SPEC, config);
    expect(result.mode).toBe("code");
    files = result.files;
    const folder = join(ROOT, ".tmp", "code-mode-memos");
    await rm(folder, { recursive: true, force: true });
    expect(await writeAndTypecheck(folder, result.files)).toBe("");
    const index = (await import(/* @vite-ignore */ join(folder, "generated/index.ts"))) as {
      tools: readonly ToolDefinition[];
      serverIdentity: { name: string; version: string };
    };
    const data = (await import(/* @vite-ignore */ join(folder, "generated/discovery.ts"))) as { discovery: DiscoveryData };
    const settings = (await import(/* @vite-ignore */ join(folder, "generated/server-settings.ts"))) as { code: CodeSettings };
    upstream = await startUpstream((request, res) =>
      sendJson(res, 200, request.method === "POST" ? { name: "memos/9", content: "made" } : { memos: [{ name: "memos/9" }] }),
    );
    server = await startServer({
      identity: index.serverIdentity,
      tools: index.tools,
      discovery: data.discovery,
      code: settings.code,
      log: silentLogger,
      environment: testEnvironment(upstream.url),
    });
    client = await connectClient(server.url);
    beside = await startServer({
      identity: index.serverIdentity,
      tools: index.tools,
      discovery: data.discovery,
      code: { allowWrites: false },
      log: silentLogger,
      environment: testEnvironment(upstream.url),
    });
  }, 180_000);

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await beside?.close();
    await upstream?.close();
  });

  it("writes the settings, the entry that passes them, and a README with a program over this API", () => {
    expect(files.get("server.ts")).toContain("await runServer({ identity: serverIdentity, tools, discovery, upstream, auth, code });");
    expect(files.get("server-settings.ts")).toMatch(/export const code: CodeSettings = \{[^}]*allowWrites: \["memo_create_memo"\]/s);
    expect(files.get("server-settings.ts")).toContain("replacesCall: true");
    const readme = files.get("README.md") ?? "";
    expect(readme).toContain("`run_code`");
    expect(readme).toContain("only through `memo_create_memo`");
    expect(readme).toMatch(/```ts\nconst found = await api\.\w+\(/);
  });

  it("lists search, describe and run_code, and describe shows each operation as a program calls it", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["search_operations", "describe_operation", "run_code"]);
    const described = await client.callTool({ name: "describe_operation", arguments: { name: "memo_list_memo_comments" } });
    const text = (described.content as { text: string }[])[0]?.text ?? "";
    expect(JSON.parse(text).signature).toMatch(
      /^api\.memo_list_memo_comments\(args: \{ memo: string; pageSize\?: number; pageToken\?: string; orderBy\?: string \}\): Promise<\{ /,
    );
    const call = await client
      .callTool({ name: "call_operation", arguments: { name: "memo_list_memos", arguments: {} } })
      .catch((error: Error) => error);
    expect(String(call)).toContain("Unknown tool: call_operation");
  });

  it("lists run_code beside all three discovery tools with code beside discovery mode", async () => {
    const other = await connectClient(beside.url);
    try {
      const { tools } = await other.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["search_operations", "describe_operation", "call_operation", "run_code"]);
      expect(tools[0]?.description).toContain("or several from a program with run_code");
      const called = await other.callTool({ name: "call_operation", arguments: { name: "memo_list_memos", arguments: {} } });
      expect(called.isError).toBeFalsy();
    } finally {
      await other.close();
    }
  });

  it("runs a program that reads and writes where the config allows, and refuses other writes", async () => {
    const result = await client.callTool({
      name: "run_code",
      arguments: {
        code: `const made = await api.memo_create_memo({ body: { content: "made", state: "NORMAL", visibility: "PRIVATE" } });
               const { memos } = await api.memo_list_memo_comments({ memo: made.name });
               let refused = "";
               try { await api.memo_delete_memo({ memo: made.name }); } catch (error) { refused = error.message; }
               return { made: made.name, comments: memos.length, refused };`,
      },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      result: { made: "memos/9", comments: 1, refused: expect.stringContaining("changes data (DELETE)") },
      calls: [
        { name: "memo_create_memo", ok: true },
        { name: "memo_list_memo_comments", ok: true },
        { name: "memo_delete_memo", ok: false },
      ],
    });
  });

  it("refuses an allowWrites entry that names no selected operation, with the near miss", async () => {
    const config = await memosConfig({ code: { allowWrites: ["MemoService_CreateMemoo"] } });
    await expect(generateFromFile(SPEC, config)).rejects.toThrow(
      /code\.allowWrites: "MemoService_CreateMemoo" is not a selected operation.*MemoService_CreateMemo/s,
    );
  });

  it("lists run_code beside the tools in tools mode with code: true, and only then", async () => {
    const tools = await generateFromFile(SPEC, await memosConfig({ mode: "tools", code: true }));
    expect(tools.files.get("server.ts")).toContain("upstream, auth, code });");
    expect(tools.files.get("server-settings.ts")).toContain("allowWrites: false");
    const plain = await generateFromFile(SPEC, await memosConfig({ mode: "tools" }));
    expect(plain.files.get("server.ts")).not.toContain("code");
    expect(tools.toolsList.bytes).toBeGreaterThan(plain.toolsList.bytes);
  });

  it("code.typeCheck: the settings pass it, the package depends on typescript to run (not only to build), the README says so", async () => {
    const checked = await generateFromFile(SPEC, await memosConfig({ mode: "tools", code: { typeCheck: true } }));
    expect(checked.files.get("server-settings.ts")).toContain("typeCheck: true");
    const manifest = JSON.parse(checked.files.get("package.json") ?? "{}");
    expect(manifest.dependencies.typescript).toBe("^5.9.3");
    expect(manifest.devDependencies.typescript).toBeUndefined();
    expect(checked.files.get("README.md")).toContain("Each program is type-checked against the operations' argument types first");
    const plain = await generateFromFile(SPEC, await memosConfig({ mode: "tools", code: true }));
    const unchecked = JSON.parse(plain.files.get("package.json") ?? "{}");
    expect([unchecked.dependencies.typescript, unchecked.devDependencies.typescript]).toEqual([undefined, "^5.9.3"]);
    expect(plain.files.get("README.md")).not.toContain("type-checked");
  });
});
