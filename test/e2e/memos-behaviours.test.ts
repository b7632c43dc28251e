import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RunningServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../generator/base/index.js";
import { generateFromDocument } from "../../generator/generate.js";
import type { ToolModel } from "../../generator/model/index.js";
import { toolDefinition } from "../../templates/tool-module.js";
import { loadMemos } from "../helpers/memos-model.js";
import { connectClient, startMemosServer } from "../helpers/memos-server.js";
import { sendJson, startUpstream } from "../helpers/upstream.js";

/** The outcome of generating, as its error lines (or none). */
async function problemsOf(run: Promise<unknown>): Promise<string[]> {
  try {
    await run;
    return [];
  } catch (error) {
    if (error instanceof UserError) return [...error.problems];
    throw error;
  }
}

describe("behaviours of Memos' own Go MCP server", () => {
  it("fails when two operationIds derive one tool name, naming both; an override resolves it", async () => {
    const operation = (operationId: string) => ({ operationId, responses: { "200": { description: "ok" } } });
    const document = {
      openapi: "3.0.3",
      info: { title: "users", version: "1" },
      paths: { "/a": { get: operation("get_user") }, "/b": { get: operation("getUser") } },
    };
    const config = { server: { name: "users" }, select: { all: true } };
    expect(await problemsOf(generateFromDocument(document, config))).toEqual([
      '"get_user" and "getUser" both become the tool "get_user"; give one another name with overrides.get_user.name',
    ]);
    const resolved = await generateFromDocument(document, { ...config, overrides: { getUser: { name: "get_user_by_id" } } });
    expect(resolved.tools.map((tool) => tool.name)).toEqual(["get_user", "get_user_by_id"]);
  });

  it("names a few of many clashing operations, and one operationId repeated on routes as the document's fault", async () => {
    const operation = (operationId: string) => ({ operationId, responses: { "200": { description: "ok" } } });
    const config = { server: { name: "users" }, select: { all: true } };
    const info = { title: "users", version: "1" };
    const alike = ["get_user", "getUser", "GetUser", "get-user", "get.user"];
    const paths = Object.fromEntries(alike.map((id, index) => [`/u${index}`, { get: operation(id) }]));
    expect(await problemsOf(generateFromDocument({ openapi: "3.0.3", info, paths }, config))).toEqual([
      '"get_user", "getUser", "GetUser" and 2 more all become the tool "get_user"; give one another name with overrides.get_user.name',
    ]);
    const repeated = Object.fromEntries(Array.from({ length: 2000 }, (_, index) => [`/r${index}`, { get: operation("op") }]));
    expect(await problemsOf(generateFromDocument({ openapi: "3.0.3", info, paths: repeated }, config))).toEqual([
      'operationId "op" is on 2000 operations (GET /r0, GET /r1, GET /r2 and 1997 more); operationIds must be unique: rename them in the document, or leave all but one out with select.exclude.paths',
    ]);
  });

  it("writes output.validate and output.schema: false from the config into the tool definition", async () => {
    const { document, config } = await loadMemos();
    const result = await generateFromDocument(document, {
      ...config,
      output: { validate: "strict" },
      overrides: { ...config.overrides, MemoService_GetMemo: { output: { schema: false, validate: "off" } } },
    });
    const get = toolDefinition(result.tools.find((tool) => tool.name === "memo_get_memo") as ToolModel);
    const list = toolDefinition(result.tools.find((tool) => tool.name === "memo_list_memos") as ToolModel);
    expect(get.outputSchema).toBeUndefined();
    expect(get.outputValidation).toBe("off");
    expect(list.outputValidation).toBe("strict");
    expect(result.files.get("tools/memo_get_memo.ts")).not.toContain("outputSchema");
  });

  it("says when an override names an operation that exists but is not selected", async () => {
    const { document, config } = await loadMemos();
    const problems = await problemsOf(
      generateFromDocument(document, { ...config, overrides: { ...config.overrides, UserService_GetUser: { title: "Who" } } }),
    );
    expect(problems).toEqual([
      'overrides: "UserService_GetUser" is in the document but not selected; add it to operations, or remove the override',
    ]);
  });

  describe("through the SDK client", () => {
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let server: RunningServer;
    let client: Client;
    const MEMO = {
      name: "memos/abc",
      state: "NORMAL",
      creator: "users/1",
      content: "hello",
      visibility: "PRIVATE",
      tags: ["a"],
      pinned: false,
      snippet: "hello",
    };
    beforeAll(async () => {
      upstream = await startUpstream((request, res) => sendJson(res, 200, request.method === "DELETE" ? {} : MEMO));
      server = await startMemosServer(upstream.url);
      client = await connectClient(server.url);
    });
    afterAll(async () => {
      await client.close();
      await server.close();
      await upstream.close();
    });

    it("strips a '*' prefix only when its parent matches the call's parent id", async () => {
      upstream.requests.length = 0;
      const own = await client.callTool({
        name: "memo_delete_memo_reaction",
        arguments: { memo: "abc", reaction: "memos/abc/reactions/r1" },
      });
      expect(own.isError).toBeFalsy();
      expect(upstream.requests[0]?.path).toBe("/api/v1/memos/abc/reactions/r1");
      const other = await client.callTool({
        name: "memo_delete_memo_reaction",
        arguments: { memo: "abc", reaction: "memos/other/reactions/r1" },
      });
      expect(other.isError).toBe(true);
      expect(JSON.stringify(other.content)).toContain('names a resource of \\"other\\", not of \\"abc\\"');
      expect(upstream.requests).toHaveLength(1);
    });

    it("accepts a memo read with memo_get_memo back in memo_update_memo, dropping its read-only fields; a typo is named beside the answer", async () => {
      const read = await client.callTool({ name: "memo_get_memo", arguments: { memo: "abc" } });
      const { name: _, ...body } = read.structuredContent as typeof MEMO;
      upstream.requests.length = 0;
      const updated = await client.callTool({
        name: "memo_update_memo",
        arguments: { memo: "abc", updateMask: "content", body: { ...body, content: "new" } },
      });
      expect(updated.isError, JSON.stringify(updated.content)).toBeFalsy();
      const sent = JSON.parse(upstream.requests[0]?.body ?? "{}");
      expect(sent).toEqual({ state: "NORMAL", content: "new", visibility: "PRIVATE", pinned: false });
      const tools = await client.listTools();
      expect(tools.tools.find((tool) => tool.name === "memo_update_memo")?.description).toContain("may be sent back and are ignored");
      // Memos' document leaves its memo open: a field it does not name is forwarded; a near miss is named beside the answer.
      upstream.requests.length = 0;
      const typo = await client.callTool({ name: "memo_update_memo", arguments: { memo: "abc", body: { contnet: "x" } } });
      expect(typo.isError).toBeFalsy();
      expect(typo.structuredContent).toEqual(MEMO);
      expect((typo.content as { text: string }[]).at(-1)?.text).toBe(
        'note: the document names no field body.contnet (did you mean "content"?); sent as given',
      );
      expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toEqual({ contnet: "x" });
    });

    it("forwards a field memo_create_memo's document leaves out whole, and drops the read-only fields a read carried", async () => {
      upstream.requests.length = 0;
      const forwarded = await client.callTool({ name: "memo_create_memo", arguments: { body: { content: "x", mood: "happy" } } });
      expect(forwarded.isError, JSON.stringify(forwarded.content)).toBeFalsy();
      expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toEqual({ content: "x", mood: "happy" });
      upstream.requests.length = 0;
      const echoed = await client.callTool({
        name: "memo_create_memo",
        arguments: { body: { content: "x", creator: "users/9", tags: [] } },
      });
      expect(echoed.isError, JSON.stringify(echoed.content)).toBeFalsy();
      expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toEqual({ content: "x" });
    });

    it("drops read-only fields at every depth (an attachment's createTime and size, a relation's snippet) and forwards nested fields the document leaves out", async () => {
      upstream.requests.length = 0;
      const attachments = await client.callTool({
        name: "memo_set_memo_attachments",
        arguments: {
          memo: "abc",
          body: {
            attachments: [
              {
                name: "attachments/a1",
                filename: "a.png",
                type: "image/png",
                createTime: "2026-01-01T00:00:00Z",
                size: "187",
                checksum: "sha256:…",
              },
            ],
          },
        },
      });
      expect(attachments.isError, JSON.stringify(attachments.content)).toBeFalsy();
      expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toEqual({
        attachments: [{ name: "attachments/a1", filename: "a.png", type: "image/png", checksum: "sha256:…" }],
      });
      upstream.requests.length = 0;
      const relations = await client.callTool({
        name: "memo_set_memo_relations",
        arguments: {
          memo: "abc",
          body: {
            relations: [
              { memo: { name: "memos/abc", snippet: "hello" }, relatedMemo: { name: "memos/def", snippet: "other" }, type: "REFERENCE" },
            ],
          },
        },
      });
      expect(relations.isError, JSON.stringify(relations.content)).toBeFalsy();
      expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toEqual({
        relations: [{ memo: { name: "memos/abc" }, relatedMemo: { name: "memos/def" }, type: "REFERENCE" }],
      });
      // The config omits the root's name (the path names the memo): a name the operator took out stays refused.
      upstream.requests.length = 0;
      const omitted = await client.callTool({
        name: "memo_set_memo_attachments",
        arguments: { memo: "abc", body: { name: "memos/x", attachments: [] } },
      });
      expect(omitted.isError).toBe(true);
      expect(JSON.stringify(omitted.content)).toContain('unknown property \\"name\\"');
      expect(upstream.requests).toHaveLength(0);
    });

    it("lists every curated tool's input schema closed at its root, as the server refuses unknown arguments", async () => {
      for (const tool of (await client.listTools()).tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    });
  });
});
