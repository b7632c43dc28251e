import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { heapMode, parseSearchArguments } from "../../search/command.js";
import {
  callTool,
  connectClient,
  FIXTURES,
  fileRoots,
  loadApis,
  MEMOS,
  MUSEUM,
  SHARED_DOCUMENTS,
  startSearch,
} from "../helpers/search-server.js";
import { startUpstream } from "../helpers/upstream.js";

const run = promisify(execFile);
const LIBRARY = `${FIXTURES}graphql/library.graphql`;
const LIBRARY_V2 = `${FIXTURES}graphql/library-v2.graphql`;
const LIBRARY_INTROSPECTION = `${FIXTURES}graphql/library.introspection.json`;

/** A document whose text tries to forge Markdown structure: headings, table rows, sections, HTML, fences. */
const HOSTILE = {
  openapi: "3.0.3",
  info: { title: "Evil\n# Forged title heading", version: "1 | 2", description: "line\n## Security\nPublic\n```\n<script>x</script>" },
  servers: [{ url: "https://evil.example/api" }],
  tags: [{ name: "pipe|tag", description: "a\n# Forged tag heading" }],
  components: {
    securitySchemes: { "key|x": { type: "apiKey", in: "header", name: "X-Key", description: "\n## Forged auth section" } },
    schemas: {
      "Thing|Bad": {
        type: "object",
        description: "text\r# Forged schema heading",
        properties: { "a|b": { type: "string", description: "x\n| forged | row |" } },
      },
    },
  },
  security: [{ "key|x": [] }],
  paths: {
    "/objects": {
      get: {
        operationId: "constructor",
        summary: "toString hasOwnProperty __proto__ constructor valueOf",
        description: "Words that are also names of Object.prototype's properties.",
        responses: { "200": { description: "ok" } },
      },
    },
    "/things/{id}": {
      get: {
        operationId: "get`Thing`",
        summary: "Get\n## Forged operation heading",
        description: "desc\n- [ ] forged\n1. list",
        tags: ["pipe|tag"],
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" }, description: "id\n# Forged parameter heading" }],
        responses: {
          "200": {
            description: "ok\n## Forged response",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing|Bad" } } },
          },
        },
      },
    },
  },
};

/** Every Markdown heading is one the export made, and every table row has as many cells as its header. */
function expectNoForgery(markdown: string) {
  const lines = markdown.split(/\r\n|[\r\n\u2028\u2029]/);
  for (const line of lines) {
    expect(line, "no heading from document text").not.toMatch(/^\s{0,3}#{1,6}\s.*Forged/);
    expect(line, "no raw HTML").not.toMatch(/<script/i);
  }
  let columns = 0;
  let inFence = false;
  for (const line of lines) {
    if (/^`{3,}/.test(line)) inFence = !inFence;
    if (inFence || !line.startsWith("|")) {
      columns = line.startsWith("|") ? columns : 0;
      continue;
    }
    const cells = line.replace(/\\\\/g, "").split(/(?<!\\)\|/).length;
    if (columns === 0) columns = cells;
    else expect(cells, line).toBe(columns);
  }
}

describe("the complete search server: paging, filters, Markdown, catalogue, GraphQL", () => {
  let server: Awaited<ReturnType<typeof startSearch>>;
  let client: Client;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "search-complete-"));
    await writeFile(join(dir, "hostile.yaml"), stringify(HOSTILE));
    server = await startSearch(["--memory", ...fileRoots(dir)]);
    client = await connectClient(server.url);
    await loadApis(client, [
      ...SHARED_DOCUMENTS,
      ["hostile", join(dir, "hostile.yaml")],
      ["library", LIBRARY],
      ["library-v2", LIBRARY_V2],
      ["library-introspection", LIBRARY_INTROSPECTION],
    ]);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Walks every page of a list tool with limit 2 and returns the items, checking count, total and cursors. */
  async function walk(tool: string, args: Record<string, unknown>, key: string) {
    const items: unknown[] = [];
    let cursor: string | null | undefined;
    let total: number | undefined;
    for (let pages = 0; pages < 200; pages++) {
      const { structured, isError, text } = await callTool(client, tool, { ...args, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(isError, text).toBe(false);
      const page = structured[key] as unknown[];
      expect(page.length).toBeLessThanOrEqual(2);
      if ("count" in structured) expect(structured.count).toBe(page.length);
      total ??= structured.total as number;
      expect(structured.total).toBe(total);
      items.push(...page);
      cursor = structured.next_cursor as string | null;
      if (cursor === null) break;
    }
    expect(items).toHaveLength(total as number);
    expect(new Set(items.map((item) => JSON.stringify(item))).size).toBe(items.length);
    return items;
  }

  it("pages every list tool with limit, cursor and total", async () => {
    expect(await walk("list_apis", {}, "apis")).toHaveLength(8);
    expect((await walk("list_tags", { name: "docker" }, "tags")).length).toBeGreaterThan(5);
    expect((await walk("list_all_paths", { name: "museum" }, "paths")).length).toBeGreaterThan(4);
    expect((await walk("search_endpoints", { name: "museum", keyword: "event" }, "results")).length).toBeGreaterThan(2);
    expect((await walk("get_endpoints_by_tag", { name: "museum", tag: "Events" }, "endpoints")).length).toBeGreaterThan(2);
    const tags = (await callTool(client, "list_tags", { name: "museum" })).structured.tags as { operations_count: number }[];
    expect(tags.every((tag) => tag.operations_count > 0)).toBe(true);
    // compare_apis pages its three lists together.
    const first = await callTool(client, "compare_apis", { base: "library", target: "library-v2", limit: 1 });
    expect(first.structured).toMatchObject({ added: { total: 1 }, removed: { total: 1 }, next_cursor: "1" });
    const second = await callTool(client, "compare_apis", { base: "library", target: "library-v2", limit: 1, cursor: "1" });
    expect((second.structured.changed as { items: unknown[] }).items).not.toEqual((first.structured.changed as { items: unknown[] }).items);
    expect((await callTool(client, "list_apis", { cursor: "99" })).isError).toBe(true);
  });

  it("refuses invalid filters, naming the valid values", async () => {
    const method = await callTool(client, "search_endpoints", { name: "memos", keyword: "memo", method: "FETCH" });
    expect(method.isError).toBe(true);
    expect(method.structured.message).toMatch(/invalid method 'FETCH': use one of GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE/);
    expect((await callTool(client, "search_endpoints", { name: "memos", method: "patch" })).structured.total).toBeGreaterThan(0);
    const tag = await callTool(client, "search_endpoints", { name: "museum", tag: "Tickts" });
    expect(tag.structured.message).toMatch(/Tag 'Tickts' not found in API 'museum'\. Did you mean 'Tickets'\? Available tags: .*Events/);
    const api = await callTool(client, "search_endpoints", { name: "museums", keyword: "tickets" });
    expect(api.structured.message).toMatch(/API 'museums' not found\. Did you mean 'museum'\? Available APIs: docker, galaxy/);
    const anywhere = await callTool(client, "search_endpoints", { keyword: "x", tag: "no-such-tag" });
    expect(anywhere.structured.message).toMatch(/no loaded API has the tag 'no-such-tag'/);
  });

  it("searches the whole catalogue without a name, saying which API each hit is in", async () => {
    const { structured } = await callTool(client, "search_endpoints", { keyword: "buy museum tickets", limit: 5 });
    expect(structured.apis_searched).toBe(8);
    const results = structured.results as { api: string; operationId: string }[];
    expect(results[0]).toMatchObject({ api: "museum", operationId: "buyMuseumTickets" });
    const memo = await callTool(client, "search_endpoints", { keyword: "create a memo", limit: 3 });
    expect((memo.structured.results as { api: string; operationId: string }[])[0]).toMatchObject({
      api: "memos",
      operationId: "MemoService_CreateMemo",
    });
    // The catalogue index follows a reload: what the new version has is found, what it dropped is not.
    expect((await callTool(client, "load_openapi", { name: "swap", url: LIBRARY })).isError).toBe(false);
    const before = await callTool(client, "search_endpoints", { keyword: "look up an author by id", limit: 50 });
    expect(before.structured.results).toContainEqual(expect.objectContaining({ api: "swap", operationId: "query.author" }));
    expect((await callTool(client, "load_openapi", { name: "swap", url: LIBRARY_V2 })).isError).toBe(false);
    const after = await callTool(client, "search_endpoints", { keyword: "look up an author by id", limit: 50 });
    expect(after.structured.results).not.toContainEqual(expect.objectContaining({ api: "swap", operationId: "query.author" }));
    const renew = await callTool(client, "search_endpoints", { keyword: "renew a loan", limit: 3 });
    expect(renew.structured.results).toContainEqual(expect.objectContaining({ api: "swap", operationId: "mutation.renewLoan" }));
    const planets = await callTool(client, "search_endpoints", { keyword: "planet", method: "DELETE" });
    expect(planets.structured.results).toEqual([expect.objectContaining({ api: "galaxy", operationId: "deletePlanet" })]);
    const markdown = await callTool(client, "search_endpoints", { keyword: "add a book", format: "markdown", limit: 3 });
    expect(markdown.text).toMatch(/\| api \| method \| path \| operationId \| summary \|/);
    expect(markdown.text).toMatch(/\| library(-introspection)? \| POST \| \/mutation\/addBook \| mutation\.addBook \|/);
  });

  it("indexes and searches words that name Object.prototype's properties like any other word", async () => {
    for (const keyword of ["constructor", "toString", "__proto__ hasOwnProperty"]) {
      const everywhere = await callTool(client, "search_endpoints", { keyword, limit: 3 });
      expect(everywhere.isError, everywhere.text).toBe(false);
      expect(everywhere.structured.results).toContainEqual(expect.objectContaining({ api: "hostile", operationId: "constructor" }));
      const named = await callTool(client, "search_endpoints", { name: "hostile", keyword });
      expect((named.structured.results as { operationId: string }[])[0]?.operationId).toBe("constructor");
    }
  });

  it("exports every tool as Markdown, and a hostile document cannot forge its structure", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["load_openapi", { name: "hostile", url: join(dir, "hostile.yaml") }],
      ["list_apis", {}],
      ["get_path_details", { name: "hostile", path: "/things/{id}" }],
      ["get_auth_info", { name: "hostile" }],
      ["search_endpoints", { name: "hostile", keyword: "thing" }],
      ["search_endpoints", { keyword: "forged" }],
      ["list_all_paths", { name: "hostile" }],
      ["get_schema_details", { name: "hostile", schema_name: "Thing|Bad" }],
      ["get_operation_by_id", { name: "hostile", operation_id: "get`Thing`" }],
      ["list_tags", { name: "hostile" }],
      ["get_endpoints_by_tag", { name: "hostile", tag: "pipe|tag" }],
      ["compare_apis", { base: "hostile", target: "museum" }],
      ["build_request", { name: "hostile", operation_id: "get`Thing`" }],
      ["load_openapi", { name: "spare", url: join(dir, "hostile.yaml") }],
      ["unload_api", { name: "spare" }],
    ];
    const { tools } = await client.listTools();
    const exported = new Set(calls.map(([tool]) => tool));
    for (const tool of tools) {
      expect(exported.has(tool.name), `${tool.name} is exported below`).toBe(true);
      expect((tool.inputSchema.properties as Record<string, unknown>).format, `${tool.name} takes format`).toBeDefined();
    }
    for (const [tool, args] of calls) {
      const { text, structured, isError } = await callTool(client, tool, { ...args, format: "markdown" });
      expect(isError, `${tool}: ${text}`).toBe(false);
      expect(structured).toEqual({ format: "markdown", markdown: text });
      expect(text, tool).toMatch(/^## /);
      expectNoForgery(text);
    }
    const tags = await callTool(client, "list_tags", { name: "hostile", format: "markdown" });
    expect(tags.text).toContain("| pipe\\|tag | 1 | a # Forged tag heading |");
    const operation = await callTool(client, "get_operation_by_id", { name: "hostile", operation_id: "get`Thing`", format: "markdown" });
    expect(operation.text).toContain("> \\## Forged operation heading");
  });

  it("reads GraphQL from SDL and from introspection JSON: operations by root type, types as schemas, search, compare", async () => {
    for (const name of ["library", "library-introspection"]) {
      const { structured } = await callTool(client, "list_apis", { limit: 200 });
      const api = (structured.apis as { name: string; kind: string; operations_count: number }[]).find((entry) => entry.name === name);
      expect(api).toMatchObject({ kind: "graphql", operations_count: 9 });
      const tags = (await callTool(client, "list_tags", { name })).structured.tags as { name: string; operations_count: number }[];
      expect(tags.map((tag) => [tag.name, tag.operations_count])).toEqual([
        ["Query", 5],
        ["Mutation", 3],
        ["Subscription", 1],
      ]);
      const search = await callTool(client, "search_endpoints", { name, keyword: "lend a book to a member" });
      expect((search.structured.results as { operationId: string }[])[0]?.operationId).toBe("mutation.borrowBook");
      const byArgument = await callTool(client, "search_endpoints", { name, keyword: "memberId" });
      expect((byArgument.structured.results as { operationId: string }[])[0]?.operationId).toBe("mutation.borrowBook");
      const book = await callTool(client, "get_schema_details", { name, schema_name: "Book" });
      expect(book.structured).toMatchObject({
        type: "object",
        "x-graphql-kind": "object",
        required: ["id", "title", "author", "available"],
      });
      const genre = await callTool(client, "get_schema_details", { name, schema_name: "Genre" });
      expect(genre.structured).toMatchObject({ enum: ["FICTION", "HISTORY", "SCIENCE", "POETRY"] });
      const union = await callTool(client, "get_schema_details", { name, schema_name: "SearchResult" });
      expect(union.structured.referenced_schemas).toEqual(["Author", "Book"]);
      const field = await callTool(client, "get_operation_by_id", { name, operation_id: "query.books" });
      expect(field.structured).toMatchObject({ method: "post", path: "/query/books", details: { tags: ["Query"] } });
    }
    const comparison = await callTool(client, "compare_apis", { base: "library", target: "library-v2" });
    expect(comparison.structured).toMatchObject({
      added: { items: [expect.objectContaining({ operationId: "mutation.renewLoan" })] },
      removed: { items: [expect.objectContaining({ operationId: "query.author" })] },
      schemas: { changed: { items: expect.arrayContaining(["Book"]) } },
    });
    const changed = (comparison.structured.changed as { items: { operationId: string; changes: string[] }[] }).items;
    expect(changed.find((item) => item.operationId === "mutation.returnBook")?.changes).toEqual(expect.arrayContaining(["requestBody"]));
    // A return type changed alone (Member → Member!) is a change of the responses, not of the request.
    const me = changed.find((item) => item.operationId === "query.me")?.changes;
    expect(me).toContain("responses");
    expect(me).not.toContain("requestBody");
  });

  it("refuses a text that is neither OpenAPI nor valid GraphQL, with the GraphQL error", async () => {
    await writeFile(join(dir, "broken.graphql"), "type Query {\n  book(id: ID!): Missing\n}\n");
    const broken = await callTool(client, "load_openapi", { name: "broken", url: join(dir, "broken.graphql") });
    expect(broken.isError).toBe(true);
    expect(broken.structured.message).toMatch(/not a valid GraphQL schema: Unknown type "Missing"/);
  });
});

describe("build_request on the shared documents: the curl command sends the operation's request", () => {
  let server: Awaited<ReturnType<typeof startSearch>>;
  let client: Client;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;

  beforeAll(async () => {
    server = await startSearch(["--memory", ...fileRoots()]);
    client = await connectClient(server.url);
    await loadApis(client, [...SHARED_DOCUMENTS, ["library", LIBRARY]]);
    upstream = await startUpstream();
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await upstream.close();
  });

  /** Runs the curl command of a built request (against the loopback upstream) and returns what arrived. */
  async function replay(args: Record<string, unknown>) {
    const built = await callTool(client, "build_request", { ...args, base_url: upstream.url.href });
    expect(built.isError, built.text).toBe(false);
    const before = upstream.requests.length;
    await run("sh", ["-c", `${built.structured.curl as string} --silent --show-error --output /dev/null`]);
    expect(upstream.requests.length).toBe(before + 1);
    return { built: built.structured, received: upstream.requests[before] as (typeof upstream.requests)[number] };
  }

  it("memos: path, query and JSON body; the server is relative, so base_url supplies the host", async () => {
    const plain = await callTool(client, "build_request", { name: "memos", operation_id: "MemoService_UpdateMemo" });
    expect(plain.structured.unresolved).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ where: "server", name: "host" }),
        expect.objectContaining({ where: "path", name: "memo" }),
      ]),
    );
    expect(plain.structured.url).toBe("https://{host}/api/v1/memos/{memo}");
    const { built, received } = await replay({
      name: "memos",
      operation_id: "MemoService_UpdateMemo",
      parameters: { memo: "a b/c", updateMask: "content" },
      body: { content: "hello 'world'" },
    });
    expect(received).toMatchObject({ method: "PATCH", path: "/api/v1/memos/a%20b%2Fc" });
    expect(received.query.get("updateMask")).toBe("content");
    expect(received.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(received.body)).toEqual({ content: "hello 'world'" });
    expect(built.http).toMatch(/^PATCH \/api\/v1\/memos\/a%20b%2Fc\?updateMask=content HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
    expect(built.fetch).toMatch(
      /^const response = await fetch\("http:\/\/127\.0\.0\.1:\d+\/api\/v1\/memos\/a%20b%2Fc\?updateMask=content", \{/,
    );
  });

  it("memos: a body built from the schema, its unknown values marked; credentials' place named", async () => {
    const { built, received } = await replay({ name: "memos", operation_id: "MemoService_CreateMemo" });
    expect(received).toMatchObject({ method: "POST", path: "/api/v1/memos" });
    const body = JSON.parse(received.body);
    expect(body).toHaveProperty("state");
    expect(built.unresolved).toEqual(expect.arrayContaining([expect.objectContaining({ where: "body" })]));
  });

  it("docker (Swagger 2.0): basePath kept, query parameters encoded, a body with its examples", async () => {
    const { built, received } = await replay({ name: "docker", operation_id: "ContainerCreate", parameters: { name: "web-1" } });
    expect(received).toMatchObject({ method: "POST", path: "/v1.56/containers/create" });
    expect(received.query.get("name")).toBe("web-1");
    expect(received.headers["content-type"]).toBe("application/json");
    expect(typeof JSON.parse(received.body)).toBe("object");
    expect(built.url).toContain("/v1.56/containers/create?name=web-1");
    const logs = await replay({
      name: "docker",
      method: "GET",
      path: "/containers/{id}/logs",
      parameters: { id: "abc", stdout: true, tail: "10" },
    });
    expect(logs.received).toMatchObject({ method: "GET", path: "/v1.56/containers/abc/logs" });
    expect(logs.received.query.get("stdout")).toBe("true");
  });

  it("galaxy: server variables resolved from defaults, the bearer credential's place marked", async () => {
    const plain = await callTool(client, "build_request", { name: "galaxy", operation_id: "updatePlanet", parameters: { planetId: 1 } });
    expect(plain.structured.url).toBe("https://galaxy.scalar.com/planets/1");
    expect(plain.structured.credentials).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: "header", name: "Authorization" })]),
    );
    expect(plain.structured.unresolved).toEqual(expect.arrayContaining([expect.objectContaining({ where: "credentials" })]));
    const { received } = await replay({ name: "galaxy", operation_id: "createPlanet" });
    expect(received).toMatchObject({ method: "POST", path: "/planets" });
    expect(JSON.parse(received.body)).toMatchObject({ name: expect.any(String) });
    expect(received.headers.authorization).toMatch(/^Bearer \{token\}$/);
  });

  it("museum: a required query parameter from its example, and a body from the media type's example", async () => {
    const { received } = await replay({ name: "museum", operation_id: "buyMuseumTickets" });
    expect(received).toMatchObject({ method: "POST", path: "/tickets" });
    expect(JSON.parse(received.body)).toMatchObject({ ticketType: expect.any(String) });
    const hours = await replay({ name: "museum", operation_id: "getMuseumHours", parameters: { startDate: "2024-01-02", limit: 5 } });
    expect(hours.received).toMatchObject({ method: "GET", path: "/museum-hours" });
  });

  it("GraphQL: the request goes to the endpoint with the operation and its variables", async () => {
    const { received } = await replay({ name: "library", operation_id: "mutation.borrowBook", base_url: undefined });
    expect(received.method).toBe("POST");
    const body = JSON.parse(received.body);
    expect(body.query).toMatch(
      /^mutation BorrowBook\(\$bookId: ID!, \$memberId: ID!, \$due: String!\) \{ borrowBook\(bookId: \$bookId, memberId: \$memberId, due: \$due\) \{ id due returned/,
    );
    expect(Object.keys(body.variables)).toEqual(["bookId", "memberId", "due"]);
  });

  it("GraphQL variables come from parameters; unknown ones are refused naming the arguments", async () => {
    const { built, received } = await replay({ name: "library", operation_id: "query.book", parameters: { id: "42" } });
    expect(JSON.parse(received.body)).toEqual({
      query: expect.stringMatching(/^query Book\(\$id: ID!\) \{ book\(id: \$id\)/),
      variables: { id: "42" },
    });
    expect(built.unresolved).toEqual([]);
    const unknown = await callTool(client, "build_request", { name: "library", operation_id: "query.book", parameters: { isbn: "x" } });
    expect(unknown.structured.message).toMatch(/unknown parameter 'isbn'; query\.book takes the variables id/);
    const scalar = await callTool(client, "get_schema_details", { name: "library", schema_name: "String" });
    expect(scalar.isError).toBe(true);
  });

  it("keeps {placeholders} literal in curl, honours a caller's Content-Type, guesses past Protocol Buffers' UNSPECIFIED", async () => {
    const { built, received } = await replay({ name: "memos", operation_id: "MemoService_UpdateMemo" });
    expect(built.curl).toMatch(/^curl -g -X PATCH /);
    expect(received.path).toBe("/api/v1/memos/%7Bmemo%7D");
    const created = await callTool(client, "build_request", { name: "memos", operation_id: "MemoService_CreateMemo" });
    const body = JSON.parse(created.structured.body as string);
    expect(body.state).not.toMatch(/UNSPECIFIED/);
    expect(JSON.stringify(body)).not.toMatch(/[<>]/);
    const tar = await replay({ name: "docker", operation_id: "ImageBuild", parameters: { "Content-type": "application/x-tar" } });
    expect(tar.received.headers["content-type"]).toBe("application/x-tar");
  });

  it("refuses what cannot be built, clearly", async () => {
    const wrong = await callTool(client, "build_request", { name: "memos", method: "PUT", path: "/api/v1/memos" });
    expect(wrong.structured.message).toMatch(/PUT \/api\/v1\/memos is not an operation; \/api\/v1\/memos has GET, POST/);
    const none = await callTool(client, "build_request", { name: "memos" });
    expect(none.structured.message).toBe("give operation_id, or method and path");
    const base = await callTool(client, "build_request", { name: "memos", operation_id: "MemoService_ListMemos", base_url: "file:///etc" });
    expect(base.structured.message).toMatch(/base_url must be an http\(s\) URL/);
    const dots = await callTool(client, "build_request", {
      name: "memos",
      operation_id: "MemoService_GetMemo",
      parameters: { memo: ".." },
    });
    expect(dots.isError).toBe(true);
  });

  it("call_endpoint is off by default: not listed, and refused when called", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain("call_endpoint");
    const refused = await callTool(client, "call_endpoint", { name: "museum", operation_id: "getMuseumHours" });
    expect(refused.isError).toBe(true);
    expect(upstream.requests.every((request) => request.path !== "/museum-hours" || request.query.get("limit") === "5")).toBe(true);
  });
});

describe("call_endpoint with --allow-calls 127.0.0.1", () => {
  let server: Awaited<ReturnType<typeof startSearch>>;
  let client: Client;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let dir: string;

  beforeAll(async () => {
    upstream = await startUpstream((request, res) => {
      res.writeHead(request.path === "/museum-hours" ? 200 : 404, { "content-type": "text/plain" });
      // A real API may answer JSON under another content type; what arrives wins over what the document says.
      res.end(request.path === "/museum-hours" ? JSON.stringify([{ date: "2024-01-02", timeOpen: "09:00" }]) : "no such route");
    });
    dir = await mkdtemp(join(tmpdir(), "search-calls-"));
    const credentials = join(dir, "credentials.json");
    await writeFile(credentials, JSON.stringify({ "127.0.0.1": { Authorization: "env:MUSEUM_TEST_TOKEN" } }));
    process.env.MUSEUM_TEST_TOKEN = "Bearer operator-secret";
    server = await startSearch(["--memory", ...fileRoots(), "--allow-calls", "127.0.0.1", "--call-credentials", credentials]);
    client = await connectClient(server.url);
    await loadApis(client, [
      ["museum", MUSEUM],
      ["memos", MEMOS],
      ["library", LIBRARY],
    ]);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
    delete process.env.MUSEUM_TEST_TOKEN;
  });

  it("refuses a GraphQL subscription, whose results one POST cannot receive, and sends nothing", async () => {
    const before = upstream.requests.length;
    const refused = await callTool(client, "call_endpoint", {
      name: "library",
      operation_id: "subscription.bookAvailable",
      base_url: upstream.url.href,
      parameters: { bookId: "7" },
    });
    expect(refused.isError).toBe(true);
    expect(refused.structured.message).toMatch(/^subscription\.bookAvailable is a GraphQL subscription: .*call_endpoint does not speak/);
    expect(upstream.requests.length).toBe(before);
  });

  it("sends the request with the operator's credential, never the caller's, and reports the answer", async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("call_endpoint");
    const result = await callTool(client, "call_endpoint", {
      name: "museum",
      operation_id: "getMuseumHours",
      base_url: upstream.url.href,
      parameters: { startDate: "2024-01-02" },
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.structured).toMatchObject({ status: 200, credentials_used: true, truncated: false });
    expect(result.text).not.toContain("operator-secret");
    const received = upstream.requests.at(-1);
    expect(received?.path).toBe("/museum-hours");
    expect(received?.headers.authorization).toBe("Bearer operator-secret");
    // A caller cannot slip credentials in as a parameter the operation does not declare.
    const sent = upstream.requests.length;
    const smuggled = await callTool(client, "call_endpoint", {
      name: "museum",
      operation_id: "getMuseumHours",
      base_url: upstream.url.href,
      parameters: { Authorization: "Bearer caller-token" },
    });
    expect(smuggled.structured.message).toMatch(/unknown parameter 'Authorization'; GET \/museum-hours takes startDate, page, limit/);
    expect(upstream.requests.length).toBe(sent);
    const missing = await callTool(client, "call_endpoint", {
      name: "memos",
      operation_id: "MemoService_GetMemo",
      base_url: upstream.url.href,
    });
    expect(missing.structured.message).toMatch(/cannot call: values are missing \(path memo\)/);
    // A body with placeholders in it is not sent either: the caller passes the body.
    const unbuilt = await callTool(client, "call_endpoint", {
      name: "memos",
      operation_id: "MemoService_CreateMemo",
      base_url: upstream.url.href,
    });
    expect(unbuilt.structured.message).toMatch(/cannot call: values are missing \(.*body \/content/);
    expect(upstream.requests.length).toBe(sent);
  });

  it("reports an upstream error status as the answer it is", async () => {
    const result = await callTool(client, "call_endpoint", {
      name: "museum",
      operation_id: "getSpecialEvent",
      base_url: upstream.url.href,
      parameters: { eventId: "x" },
    });
    expect(result.structured).toMatchObject({ status: 404, body: "no such route" });
    const markdown = await callTool(client, "call_endpoint", {
      name: "museum",
      operation_id: "getMuseumHours",
      base_url: upstream.url.href,
      format: "markdown",
    });
    expect(markdown.text).toMatch(/^## GET http:\/\/127\.0\.0\.1:\d+\/museum-hours\n/);
    expect(markdown.text).toContain("- **status:** 200");
  });

  it("refuses hosts the operator did not allow, whatever base_url says", async () => {
    for (const base of ["http://localhost:9/", "http://169.254.169.254/", "https://example.com/"]) {
      const result = await callTool(client, "call_endpoint", { name: "museum", operation_id: "getMuseumHours", base_url: base });
      expect(result.structured.message, base).toMatch(/calls to .* are not allowed; this server may call: 127\.0\.0\.1 \(any port\)$/);
    }
  });
});

describe("--heap", () => {
  it("auto favours memory at the default total size and V8's speed tuning for a server allowed a catalogue", () => {
    expect(heapMode(parseSearchArguments([]))).toBe("size");
    expect(heapMode(parseSearchArguments(["--max-total-bytes", String(2 ** 31)]))).toBe("speed");
    expect(heapMode(parseSearchArguments(["--heap", "size", "--max-total-bytes", String(2 ** 31)]))).toBe("size");
    expect(() => parseSearchArguments(["--heap", "tiny"])).toThrow();
  });
});
