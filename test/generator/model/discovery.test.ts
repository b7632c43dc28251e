import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type DiscoveryData, type RunningServer, silentLogger, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { GeneratorConfig } from "../../../generator/config/index.js";
import { generateFromFile } from "../../../generator/generate.js";
import { ROOT } from "../../helpers/cli.js";
import { writeAndTypecheck } from "../../helpers/generated-tree.js";
import { connectClient, testEnvironment } from "../../helpers/memos-server.js";
import { sampleArguments } from "../../helpers/sample-arguments.js";
import { dialectProblems } from "../../helpers/schema-dialects.js";
import { type RecordedRequest, sendJson, startUpstream } from "../../helpers/upstream.js";

interface Generated {
  tools: readonly ToolDefinition[];
  discovery: DiscoveryData;
  identity: { name: string; version: string; title?: string };
}

/** Generates a fixture in discovery mode into .tmp, type-checks it and imports its registry and discovery data. */
async function generateDiscovery(label: string, spec: string, configFile: string, extra: Record<string, unknown>): Promise<Generated> {
  const config = { ...(parse(await readFile(configFile, "utf8")) as GeneratorConfig), mode: "discovery" as const, ...extra };
  const result = await generateFromFile(spec, config);
  expect(result.mode).toBe("discovery");
  const folder = join(ROOT, ".tmp", `discovery-${label}`);
  await rm(folder, { recursive: true, force: true });
  expect(await writeAndTypecheck(folder, result.files)).toBe("");
  const index = (await import(/* @vite-ignore */ join(folder, "generated/index.ts"))) as {
    tools: readonly ToolDefinition[];
    serverIdentity: Generated["identity"];
  };
  const data = (await import(/* @vite-ignore */ join(folder, "generated/discovery.ts"))) as { discovery: DiscoveryData };
  return { tools: index.tools, discovery: data.discovery, identity: index.serverIdentity };
}

/** describe_operation's answer: one JSON text, and nothing else (no structured copy of it). */
function describedOf(result: Record<string, unknown>): Record<string, unknown> {
  expect(result.structuredContent).toBeUndefined();
  const blocks = result.content as { type: string; text: string }[];
  expect(blocks).toHaveLength(1);
  return JSON.parse(blocks[0]?.text ?? "") as Record<string, unknown>;
}

/** What of an upstream request must be the same whichever tool sent it (a multipart boundary is random per request). */
function sent(request: RecordedRequest) {
  const { "content-type": contentType, authorization, accept } = request.headers;
  const boundary = /boundary=(\S+)/.exec(contentType ?? "")?.[1];
  const fixed = (text: string | undefined) => (boundary && text ? text.replaceAll(boundary, "BOUNDARY") : text);
  return {
    method: request.method,
    path: request.path,
    search: request.search,
    body: fixed(request.body),
    contentType: fixed(contentType),
    authorization,
    accept,
  };
}

const CASES = [
  {
    label: "memos",
    spec: join(ROOT, "examples/memos/openapi.yaml"),
    config: join(ROOT, "examples/memos/oapi-mcp.config.yaml"),
    alwaysList: ["MemoService_ListMemos"],
    query: ["create a new memo", "memo_create_memo"],
  },
  {
    label: "kitchen-sink",
    spec: join(ROOT, "test/fixtures/kitchen-sink/openapi.yaml"),
    config: join(ROOT, "test/fixtures/kitchen-sink/oapi-mcp.config.yaml"),
    alwaysList: [],
    query: undefined,
  },
] as const;

for (const { label, spec, config, alwaysList, query } of CASES) {
  describe(`discovery mode over the ${label} fixture`, () => {
    let generated: Generated;
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let discoveryServer: RunningServer;
    let toolsServer: RunningServer;
    let discovery: Client;
    let direct: Client;

    beforeAll(async () => {
      generated = await generateDiscovery(label, spec, config, { discovery: { alwaysList } });
      upstream = await startUpstream((_, res) => sendJson(res, 200, { ok: "yes" }));
      const environment = testEnvironment(upstream.url);
      const common = { identity: generated.identity, tools: generated.tools, log: silentLogger, environment };
      discoveryServer = await startServer({ ...common, discovery: generated.discovery });
      toolsServer = await startServer(common);
      discovery = await connectClient(discoveryServer.url, { authorization: "Bearer same" });
      direct = await connectClient(toolsServer.url, { authorization: "Bearer same" });
    }, 180_000);

    afterAll(async () => {
      await discovery?.close();
      await direct?.close();
      await discoveryServer?.close();
      await toolsServer?.close();
      await upstream?.close();
    });

    it("lists the three discovery tools, then the operations listed directly", async () => {
      const { tools } = await discovery.listTools();
      const names = generated.tools.filter((tool) => generated.discovery.alwaysList.includes(tool.name)).map((tool) => tool.name);
      expect(tools.map((tool) => tool.name)).toEqual(["search_operations", "describe_operation", "call_operation"].concat(names));
      const call = tools.find((tool) => tool.name === "call_operation");
      const anyWrites = generated.tools.some((tool) => tool.annotations.readOnlyHint !== true);
      expect(call?.annotations?.readOnlyHint).toBe(!anyWrites);
      // The search tool's examples are this API's own operations (a write, then a read), not another API's.
      const search = tools.find((tool) => tool.name === "search_operations")?.description ?? "";
      const firstWrite = generated.tools.find((tool) => !tool.annotations.readOnlyHint)?.title ?? "";
      const firstRead = generated.tools.find((tool) => tool.annotations.readOnlyHint)?.title ?? "";
      const lower = (title: string) => title.charAt(0).toLowerCase() + title.slice(1);
      expect(search).toContain(`(e.g. ${JSON.stringify(lower(firstWrite))}, ${JSON.stringify(lower(firstRead))})`);
      expect(search).not.toContain("create an issue");
    });

    it("describes every operation once, in one JSON text of at most 16 KB, with schemas that compile under draft-07 and 2020-12", async () => {
      for (const tool of generated.tools) {
        const result = await discovery.callTool({ name: "describe_operation", arguments: { name: tool.name } });
        expect(result.isError, tool.name).toBeFalsy();
        const described = describedOf(result) as { arguments: object; result?: object; method: string; path: string };
        expect([described.method, described.path]).toEqual([tool._meta.method, tool._meta.path]);
        expect(Buffer.byteLength(JSON.stringify(result)), tool.name).toBeLessThanOrEqual(16_384 + tool.description.length);
        expect(dialectProblems(`${tool.name} input`, described.arguments)).toEqual([]);
        if (described.result) expect(dialectProblems(`${tool.name} output`, described.result)).toEqual([]);
      }
    });

    it("sends the same upstream request through call_operation as the operation's own tool, for every operation", async () => {
      for (const tool of generated.tools) {
        const args = sampleArguments(tool.inputSchema as Record<string, unknown>);
        const before = upstream.requests.length;
        const own = await direct.callTool({ name: tool.name, arguments: args });
        const viaDiscovery = await discovery.callTool({ name: "call_operation", arguments: { name: tool.name, arguments: args } });
        const [first, second] = upstream.requests.slice(before) as [RecordedRequest, RecordedRequest];
        expect(upstream.requests.length - before, tool.name).toBe(2);
        expect(sent(second), tool.name).toEqual(sent(first));
        expect(viaDiscovery.structuredContent, tool.name).toEqual(own.structuredContent);
        expect(viaDiscovery.isError, tool.name).toBe(own.isError);
        expect(viaDiscovery._meta, tool.name).toMatchObject({ operation: tool.name, annotations: tool.annotations });
      }
    });

    it("refuses unknown names and bad arguments with isError results that say what to do", async () => {
      const first = generated.tools[0] as ToolDefinition;
      const typo = `${first.name.slice(0, -1)}x`;
      for (const name of ["describe_operation", "call_operation"]) {
        const result = await discovery.callTool({ name, arguments: { name: typo } });
        expect(result.isError).toBe(true);
        expect(JSON.stringify(result.content)).toContain(`Did you mean \\"${first.name}\\"`);
      }
      const byOperationId = generated.tools.find((tool) => tool._meta.operationId) as ToolDefinition;
      const described = await discovery.callTool({ name: "describe_operation", arguments: { name: byOperationId._meta.operationId } });
      expect(describedOf(described).name).toBe(byOperationId.name);
      // Search results name the document's operationId too, the name the API's own documentation uses.
      const listed = await discovery.callTool({ name: "search_operations", arguments: { query: "", limit: 50 } });
      const hit = (listed.structuredContent as { results: { name: string; operationId?: string }[] }).results.find(
        (entry) => entry.name === byOperationId.name,
      );
      expect(hit?.operationId).toBe(byOperationId._meta.operationId);
      // …and take the route as the search result and the API's documentation show it, however the method is cased.
      const route = `${byOperationId._meta.method.toLowerCase()}  ${byOperationId._meta.path}`;
      const byRoute = await discovery.callTool({ name: "describe_operation", arguments: { name: route } });
      expect(describedOf(byRoute).name).toBe(byOperationId.name);
      const wrongType = await discovery.callTool({ name: "call_operation", arguments: { name: first.name, arguments: { nope: 1 } } });
      expect(wrongType.isError).toBe(true);
      expect(JSON.stringify(wrongType.content)).toMatch(/unknown property \\"nope\\".*inputSchema .*#\/additionalProperties/);
      const stray = await discovery.callTool({
        name: "call_operation",
        arguments: { name: first.name, arguments: {}, headers: { authorization: "Bearer x" } },
      });
      expect(stray.isError).toBe(true);
      expect(JSON.stringify(stray.content)).toContain('unknown argument \\"headers\\"; it takes name and arguments');
      const badMethod = await discovery.callTool({ name: "search_operations", arguments: { query: "x", method: "FETCH" } });
      expect(badMethod.isError).toBe(true);
      expect(JSON.stringify(badMethod.content)).toContain("GET, PUT, POST");
      const unlisted = generated.tools.find((tool) => !generated.discovery.alwaysList.includes(tool.name)) as ToolDefinition;
      await expect(discovery.callTool({ name: unlisted.name, arguments: {} })).rejects.toThrow(/call_operation/);
    });

    it("pages through every operation, filters by method and tag", async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await discovery.callTool({
          name: "search_operations",
          arguments: { query: "", limit: 3, ...(cursor ? { cursor } : {}) },
        });
        const content = page.structuredContent as { results: { name: string }[]; total: number; nextCursor?: string };
        expect(content.total).toBe(generated.tools.length);
        seen.push(...content.results.map((hit) => hit.name));
        cursor = content.nextCursor;
      } while (cursor);
      expect(seen).toEqual(generated.tools.map((tool) => tool.name));
      const gets = await discovery.callTool({ name: "search_operations", arguments: { query: "", method: "GET", limit: 50 } });
      const hits = (gets.structuredContent as { results: { method: string }[] }).results;
      expect(hits.length).toBe(generated.tools.filter((tool) => tool.http.method === "GET").length);
      const tag = generated.discovery.tags.find((tags) => tags.length > 0)?.[0];
      if (tag) {
        const tagged = await discovery.callTool({ name: "search_operations", arguments: { query: "", tag: tag.toUpperCase(), limit: 50 } });
        const count = generated.discovery.tags.filter((tags) => tags.includes(tag)).length;
        expect((tagged.structuredContent as { total: number }).total).toBe(count);
        // The search tool names the API's parts, so a model can narrow by one.
        const search = (await discovery.listTools()).tools.find((tool) => tool.name === "search_operations");
        expect(search?.description).toContain(`${JSON.stringify(tag)}`);
        // Within a part, a query that matches nothing there shows the part's operations, and says so.
        const unmatched = await discovery.callTool({ name: "search_operations", arguments: { query: "zqxjv", tag, limit: 50 } });
        const shown = unmatched.structuredContent as { total: number; note?: string };
        expect(shown.total).toBe(count);
        expect(shown.note).toContain(`No operation tagged ${JSON.stringify(tag)} matched`);
        // A query that matches some of the part shows them first, then the rest of it.
        const firstTagged = generated.tools[generated.discovery.tags.findIndex((tags) => tags.includes(tag))];
        const partly = await discovery.callTool({
          name: "search_operations",
          arguments: { query: firstTagged?.title ?? "", tag, limit: 50 },
        });
        const partlyShown = partly.structuredContent as { total: number; results: { name: string }[]; note?: string };
        expect(partlyShown.total).toBe(count);
        expect(partlyShown.results.map((hit) => hit.name)).toContain(firstTagged?.name);
        if (partlyShown.note !== undefined)
          expect(partlyShown.note).toMatch(
            /^The results are the \d+ operations tagged .*: the (one that matches|\d+ that match) the query first, then the rest\.$/,
          );
        const unknown = await discovery.callTool({ name: "search_operations", arguments: { query: "", tag: `${tag}q` } });
        expect(unknown.isError).toBe(true);
        expect((unknown.content as { text: string }[])[0]?.text).toContain(`Did you mean ${JSON.stringify(tag)}`);
      }
    });

    if (query) {
      it(`finds ${query[1]} for "${query[0]}"`, async () => {
        const found = await discovery.callTool({ name: "search_operations", arguments: { query: query[0], limit: 5 } });
        const names = (found.structuredContent as { results: { name: string; arguments: string }[] }).results.map((hit) => hit.name);
        expect(names.slice(0, 3)).toContain(query[1]);
      });
    }
  });
}

describe("choosing the mode", () => {
  const spec = join(ROOT, "examples/memos/openapi.yaml");
  const curated = async () => parse(await readFile(join(ROOT, "examples/memos/oapi-mcp.config.yaml"), "utf8")) as GeneratorConfig;

  it("auto keeps tools within the budget and switches to discovery past it, where the budget then applies to the three tools", async () => {
    const within = await generateFromFile(spec, { ...(await curated()), mode: "auto" });
    expect(within.mode).toBe("tools");
    expect([...within.files.keys()]).not.toContain("discovery.ts");
    const past = await generateFromFile(spec, { ...(await curated()), mode: "auto", budget: { maxTokens: 2_000 } });
    expect(past.mode).toBe("discovery");
    expect(past.toolsList.tokens).toBeLessThan(2_000);
    expect(past.files.get("server.ts")).toContain('await import("./discovery.js")');
    expect(past.files.get("README.md")).toContain("Discovery mode: `tools/list` shows `search_operations`");
  }, 120_000);

  it("refuses an alwaysList operationId that is not selected, naming the nearest", async () => {
    const config = { ...(await curated()), mode: "discovery" as const, discovery: { alwaysList: ["MemoService_ListMemo"] } };
    await expect(generateFromFile(spec, config)).rejects.toThrow(
      /discovery.alwaysList: "MemoService_ListMemo" is not a selected operation \(did you mean "MemoService_ListMemos"\?\)/,
    );
  }, 120_000);
});
