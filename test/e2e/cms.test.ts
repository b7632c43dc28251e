import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createLogger, type RunningServer, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, serverIdentity, tools } from "../fixtures/cms/generated/index.js";
import { connectClient, testEnvironment } from "../helpers/memos-server.js";
import { type RecordedRequest, sendJson, startUpstream } from "../helpers/upstream.js";

/** The eight bytes every PNG starts with, plus a little more. */
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);

/** What the asset endpoint (declared text/plain) really sends, by id. */
const ASSETS: Record<string, [string, Buffer]> = {
  logo: ["image/png", PNG],
  jingle: ["audio/mpeg", Buffer.from([0xff, 0xfb, 0x90, 0x44, 0, 0])],
  manual: ["application/pdf", Buffer.from("%PDF-1.7\n%\u00e2\u00e3")],
  notes: ["text/plain; charset=utf-8", Buffer.from("plain notes")],
};

describe("a CMS whose API strays from its document, through the SDK client", () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let client: Client;
  const logged: Record<string, unknown>[] = [];

  /** Starts a server over the fixture's tools (some changed) with a server-held token. */
  async function serve(definitions: readonly ToolDefinition[]) {
    return startServer({
      identity: serverIdentity,
      tools: definitions,
      auth,
      env: { BEARER_AUTH_TOKEN: "server-key" },
      log: createLogger("info", "json", { write: (line: string) => logged.push(JSON.parse(line)) }),
      environment: testEnvironment(upstream.url),
    });
  }

  beforeAll(async () => {
    upstream = await startUpstream((request: RecordedRequest, res) => {
      if (request.path === "/server/ping") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("pong");
      } else if (request.path.startsWith("/assets/")) {
        const [type, body] = ASSETS[request.path.slice("/assets/".length)] ?? ["image/png", PNG];
        res.writeHead(200, { "content-type": type });
        res.end(body);
      } else if (request.method === "POST") sendJson(res, 200, { data: { id: 3, title: "New", status: "draft", published_at: null } });
      else
        sendJson(res, 200, {
          data: [
            { id: 1, title: null, status: "published", published_at: null },
            { id: 2, status: "draft" },
          ],
        });
    });
    server = await serve(tools);
    client = await connectClient(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await upstream.close();
  });

  it("sends JSON-content filters as one named parameter, and every other style as the table says", async () => {
    upstream.requests.length = 0;
    const result = await client.callTool({
      name: "read_items",
      arguments: {
        collection: "articles",
        filter: { status: { _eq: "published" } },
        deep: { author: { _limit: 1 } },
        fields: ["id", "title"],
        sort: ["-id", "title"],
        limit: 2,
      },
    });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const [request] = upstream.requests;
    expect(request?.path).toBe("/items/articles");
    expect(request?.query.get("filter")).toBe('{"status":{"_eq":"published"}}');
    expect(request?.query.get("deep")).toBe('{"author":{"_limit":1}}');
    expect([...(request?.query.keys() ?? [])]).toEqual(["filter", "deep", "fields", "sort", "limit"]);
    expect(request?.search).toBe(
      "?filter=%7B%22status%22%3A%7B%22_eq%22%3A%22published%22%7D%7D&deep=%7B%22author%22%3A%7B%22_limit%22%3A1%7D%7D&fields=id,title&sort=-id%7Ctitle&limit=2",
    );
  });

  it("returns a successful result whose nulls and missing fields the document does not allow, and logs the difference once", async () => {
    const result = await client.callTool({ name: "read_items", arguments: { collection: "articles" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      data: [
        { id: 1, title: null, status: "published", published_at: null },
        { id: 2, status: "draft" },
      ],
    });
    await client.callTool({ name: "read_items", arguments: { collection: "articles" } });
    // Once for this tool and difference, however many calls meet it (the calls above and the test before this one).
    const differences = logged.filter((line) => line.message === "upstream result differs from the document");
    expect(differences).toEqual([expect.objectContaining({ tool: "read_items", repeats: "not logged again" })]);
  });

  it("reports a create that succeeded upstream as a success, not as a failure to retry", async () => {
    const result = await client.callTool({
      name: "create_item",
      arguments: { collection: "articles", body: { id: 99, title: "New", status: "draft" } },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ data: { id: 3, title: "New", status: "draft", published_at: null } });
    expect(JSON.parse(upstream.requests.at(-1)?.body ?? "{}")).toEqual({ title: "New", status: "draft" });
  });

  it("returns the PNG a text/plain-declared endpoint sends as image content", async () => {
    const result = await client.callTool({ name: "get_asset", arguments: { id: "logo" } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toContainEqual({ type: "image", data: PNG.toString("base64"), mimeType: "image/png" });
    expect((result.structuredContent as { result: string }).result).toMatch(/^\[image\/png, 19 bytes, sha256 [0-9a-f]{64}\]$/);
  });

  it("returns audio as audio content, other bytes as an embedded resource blob, text as text", async () => {
    const jingle = await client.callTool({ name: "get_asset", arguments: { id: "jingle" } });
    expect(jingle.content).toContainEqual({ type: "audio", data: ASSETS.jingle?.[1].toString("base64"), mimeType: "audio/mpeg" });
    const manual = await client.callTool({ name: "get_asset", arguments: { id: "manual" } });
    expect(manual.content).toContainEqual({
      type: "resource",
      resource: {
        uri: new URL("/assets/manual", upstream.url).href,
        mimeType: "application/pdf",
        blob: ASSETS.manual?.[1].toString("base64"),
      },
    });
    const notes = await client.callTool({ name: "get_asset", arguments: { id: "notes" } });
    expect(notes.structuredContent).toEqual({ result: "plain notes" });
  });

  it("returns a ping's short text answer (declared application/text, sent as text/html) as the text", async () => {
    const result = await client.callTool({ name: "ping", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ result: "pong" });
  });

  it("forwards body fields the document leaves out whole, naming a likely typo beside the answer; drops a read-only field", async () => {
    upstream.requests.length = 0;
    const item = await client.callTool({
      name: "create_item",
      arguments: { collection: "articles", body: { id: 9, title: "New", status: "draft", colour: "red" } },
    });
    expect(item.isError, JSON.stringify(item.content)).toBeFalsy();
    expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toEqual({ title: "New", status: "draft", colour: "red" });
    upstream.requests.length = 0;
    // The real CMS takes bookmark and filter, which its document omits: the call goes through whole, with a note.
    const preset = await client.callTool({
      name: "create_preset",
      arguments: { body: { collection: "articles", layout: "tabular", bookmark: "Drafts", filter: { status: { _eq: "draft" } } } },
    });
    expect(preset.isError, JSON.stringify(preset.content)).toBeFalsy();
    expect(JSON.parse(upstream.requests[0]?.body ?? "{}")).toEqual({
      collection: "articles",
      layout: "tabular",
      bookmark: "Drafts",
      filter: { status: { _eq: "draft" } },
    });
    const texts = (preset.content as { text: string }[]).map((block) => block.text);
    expect(texts.at(-1)).toBe('note: the document names no field body.filter (did you mean "filters"?); sent as given');
    expect(preset.structuredContent).toBeDefined();
  });

  it("refuses a field the document's closed schema does not name, and one at any depth of a body the operator closed; sends nothing", async () => {
    upstream.requests.length = 0;
    const webhook = await client.callTool({
      name: "create_webhook",
      arguments: { body: { name: "n", url: "https://hooks.example/x", secret: "s" } },
    });
    expect(webhook.isError).toBe(true);
    expect(JSON.stringify(webhook.content)).toContain('unknown property \\"secret\\" (it takes name, url, actions)');
    const permission = await client.callTool({
      name: "create_permission",
      arguments: { body: { collection: "articles", permissions: { fields: ["*"], feilds: ["title"] } } },
    });
    expect(permission.isError).toBe(true);
    expect(JSON.stringify(permission.content)).toContain(
      'unknown property body.permissions.feilds (did you mean \\"fields\\"?): this server\'s operator closed this body',
    );
    expect(upstream.requests).toHaveLength(0);
    const allowed = await client.callTool({
      name: "create_permission",
      arguments: { body: { collection: "articles", permissions: { fields: ["*"] } } },
    });
    expect(allowed.isError, JSON.stringify(allowed.content)).toBeFalsy();
  });

  it("publishes no output schema for a tool whose config drops it, and returns its results unchecked", async () => {
    const dropped = tools.map((tool) => {
      if (tool.name !== "read_items") return tool;
      const { outputSchema: _, ...rest } = tool;
      return rest;
    });
    const bare = await serve(dropped);
    const bareClient = await connectClient(bare.url);
    try {
      const { tools: listed } = await bareClient.listTools();
      expect(listed.find((tool) => tool.name === "read_items")?.outputSchema).toBeUndefined();
      const result = await bareClient.callTool({ name: "read_items", arguments: { collection: "articles" } });
      expect(result.isError).toBeFalsy();
      expect((result.structuredContent as { data: unknown[] }).data).toHaveLength(2);
    } finally {
      await bareClient.close();
      await bare.close();
    }
  });

  it("sends the server-held key to operations that declare no security (auth.apply: all)", async () => {
    upstream.requests.length = 0;
    await client.callTool({ name: "read_items", arguments: { collection: "articles" } });
    await client.callTool({ name: "get_asset", arguments: { id: "logo" } });
    expect(upstream.requests.map((request) => request.headers.authorization)).toEqual(["Bearer server-key", "Bearer server-key"]);
  });

  it("bundles the schema kept in another file into the tool schemas", async () => {
    const { tools: listed } = await client.listTools();
    const readItems = listed.find((tool) => tool.name === "read_items");
    expect(JSON.stringify(readItems?.outputSchema)).toContain('"published_at"');
    expect(Object.keys(listed.find((tool) => tool.name === "create_item")?.inputSchema.properties ?? {})).toContain("body");
  });

  it("with output.validate: strict, a result that breaks the schema is an error", async () => {
    const strict = tools.map((tool) => (tool.name === "read_items" ? { ...tool, outputValidation: "strict" as const } : tool));
    const strictServer = await serve(strict);
    const strictClient = await connectClient(strictServer.url);
    try {
      const result = await strictClient.callTool({ name: "read_items", arguments: { collection: "articles" } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("does not match the output schema of read_items");
    } finally {
      await strictClient.close();
      await strictServer.close();
    }
  });
});
