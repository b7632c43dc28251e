import { spawn } from "node:child_process";
import type { RunningServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMemosServer } from "../helpers/memos-server.js";
import { NODE22, nodeToolFile } from "../helpers/node-tools.js";
import { type RecordedRequest, sendJson, startUpstream } from "../helpers/upstream.js";

/** The Inspector (its engines want Node 22), installed with its Node by `npm run setup:node22`, apart from the project. */
const INSPECTOR = nodeToolFile("@modelcontextprotocol/inspector", "clients/launcher/build/index.js");

/** Runs `mcp-inspector --cli` (2.12.0) on Node 22 and parses its JSON output. */
function inspector(args: string[]): Promise<{ code: number | null; json: Record<string, unknown> | undefined; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE22 ?? process.execPath, [INSPECTOR, "--cli", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => {
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ code, json, stderr });
    });
  });
}

describe("MCP Inspector CLI against the generated Memos server", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  const seen: RecordedRequest[] = [];

  beforeAll(async () => {
    upstream = await startUpstream((request, res) => {
      seen.push(request);
      sendJson(res, 200, { memos: [], nextPageToken: "" });
    });
    server = await startMemosServer(upstream.url);
  });
  afterAll(async () => {
    await server.close();
    await upstream.close();
  });

  it("lists exactly the 17 tools with object input and output schemas", async () => {
    const { code, json, stderr } = await inspector([server.url.href, "--transport", "http", "--method", "tools/list"]);
    expect(code, stderr).toBe(0);
    const tools = (json?.tools ?? []) as { name: string; inputSchema: { type: string }; outputSchema: { type: string } }[];
    expect(tools).toHaveLength(17);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema.type).toBe("object");
    }
  });

  it("finds no portability problem in any tool schema with --strict (no warning, no error)", async () => {
    const { code, stderr } = await inspector([server.url.href, "--transport", "http", "--method", "tools/list", "--strict"]);
    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/Warning:|Error:|portability/);
  });

  it("calls memo_list_memos with an Authorization header and gets object structuredContent", async () => {
    const args = ["--transport", "http", "--method", "tools/call", "--tool-name", "memo_list_memos", "--tool-arg", "pageSize=3"];
    const { code, json, stderr } = await inspector([server.url.href, ...args, "--header", "Authorization: Bearer inspector-token"]);
    expect(code, stderr).toBe(0);
    expect(json?.structuredContent).toEqual({ memos: [], nextPageToken: "" });
    expect(seen.at(-1)?.headers.authorization).toBe("Bearer inspector-token");
    expect(seen.at(-1)?.query.get("pageSize")).toBe("3");
  });
});

describe("MCP Inspector CLI against the search server", () => {
  it("lists the tools and calls one with an Authorization header", async () => {
    const { startSearch, MUSEUM } = await import("../helpers/search-server.js");
    const server = await startSearch(["--memory", "--load", `museum=${MUSEUM}`]);
    try {
      const listed = await inspector([server.url.href, "--transport", "http", "--method", "tools/list"]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(((listed.json?.tools ?? []) as { name: string }[]).map((tool) => tool.name)).toContain("search_endpoints");
      const args = [
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "search_endpoints",
        "--tool-arg",
        "name=museum",
        "--tool-arg",
        "keyword=tickets",
      ];
      const called = await inspector([server.url.href, ...args, "--header", "Authorization: Bearer inspector-token"]);
      expect(called.code, called.stderr).toBe(0);
      expect((called.json?.structuredContent as { total: number } | undefined)?.total).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
