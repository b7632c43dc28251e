import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectClient, DOCKER, loadApis, MEMOS, SHARED_DOCUMENTS, startSearch } from "../../helpers/search-server.js";

const CONTRACT_TOOLS = [
  "load_openapi",
  "list_apis",
  "get_path_details",
  "get_auth_info",
  "search_endpoints",
  "list_all_paths",
  "get_schema_details",
  "get_operation_by_id",
  "list_tags",
  "get_endpoints_by_tag",
];

describe("search server tools over a real MCP client", () => {
  let server: Awaited<ReturnType<typeof startSearch>>;
  let client: Client;

  beforeAll(async () => {
    server = await startSearch([
      "--memory",
      "--files-root",
      new URL("../../..", import.meta.url).pathname,
      "--files-root",
      new URL("../../../examples", import.meta.url).pathname,
    ]);
    client = await connectClient(server.url);
    await loadApis(client, SHARED_DOCUMENTS);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it("offers the ten contract tools (plus compare_apis, unload_api and build_request; call_endpoint is off), tools capability only", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([...CONTRACT_TOOLS, "compare_apis", "unload_api", "build_request"]);
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false } });
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.description).toBeTruthy();
    }
  });

  it("load_openapi reports info, servers, counts, version and warnings; reloading says so", async () => {
    const docker = await callTool(client, "load_openapi", { name: "docker2", url: DOCKER });
    expect(docker.structured).toMatchObject({
      status: "success",
      replaced: false,
      info: { title: "Docker Engine API", version: "1.56" },
      paths_count: 98,
      operations_count: 108,
      source_version: "2.0",
    });
    expect(docker.structured.warnings).toContain("converted from Swagger 2.0 to OpenAPI 3.0 with swagger2openapi");
    const again = await callTool(client, "load_openapi", { name: "docker2", url: DOCKER });
    expect(again.structured).toMatchObject({ replaced: true, message: expect.stringContaining("replaced") });
  });

  it("a failed reload keeps the previous document", async () => {
    const failed = await callTool(client, "load_openapi", { name: "docker2", url: `${MEMOS}.missing` });
    expect(failed.isError).toBe(true);
    expect(failed.structured).toEqual({ error: true, message: expect.stringMatching(/no such file.*previously loaded 'docker2' is kept/) });
    expect((await callTool(client, "list_apis")).structured.apis).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "docker2", paths_count: 98 })]),
    );
  });

  it("list_apis lists every API with its summary", async () => {
    const { structured } = await callTool(client, "list_apis");
    const names = (structured.apis as { name: string }[]).map((api) => api.name);
    expect(names).toEqual([...names].sort());
    expect(structured.apis).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "memos", version: "0.0.1", paths_count: 45, tags_count: 8, servers: [] }),
        expect.objectContaining({
          name: "museum",
          title: "Redocly Museum API",
          servers: ["https://redocly.com/_mock/docs/openapi/museum-api"],
        }),
      ]),
    );
  });

  it("get_path_details merges parameters and tolerates other parameter names", async () => {
    const { structured } = await callTool(client, "get_path_details", { name: "memos", path: "/api/v1/memos/{id}" });
    expect(structured.path).toBe("/api/v1/memos/{memo}");
    const methods = structured.methods as Record<string, Record<string, unknown>>;
    expect(Object.keys(methods)).toEqual(["get", "delete", "patch"]);
    expect(methods.get).toMatchObject({
      operationId: "MemoService_GetMemo",
      public: true,
      security_source: "none",
      referenced_schemas: ["Memo", "Status"],
    });
    const missing = await callTool(client, "get_path_details", { name: "memos", path: "/api/v1/memoz" });
    expect(missing.structured.message).toMatch(/^Path '\/api\/v1\/memoz' not found in API 'memos'\. Closest paths: \/api\/v1\/memos/);
  });

  it("get_auth_info returns schemes and global security (3.1 and converted 2.0)", async () => {
    const galaxy = await callTool(client, "get_auth_info", { name: "galaxy" });
    expect(Object.keys(galaxy.structured.security_schemes as object).sort()).toEqual(
      ["apiKeyCookie", "apiKeyHeader", "apiKeyQuery", "basicAuth", "bearerAuth", "oAuth2", "openIdConnect"].sort(),
    );
    expect(Array.isArray(galaxy.structured.global_security)).toBe(true);
    expect((await callTool(client, "get_auth_info", { name: "docker" })).structured).toEqual({ security_schemes: {}, global_security: [] });
  });

  it("get_operation_by_id gives path, method, effective details; an unknown id names the closest", async () => {
    const { structured } = await callTool(client, "get_operation_by_id", { name: "docker", operation_id: "ContainerList" });
    expect(structured).toMatchObject({ operation_id: "ContainerList", path: "/containers/json", method: "get" });
    const details = structured.details as { parameters: { name: string }[] };
    expect(details.parameters.map((p) => p.name)).toEqual(["all", "limit", "size", "filters"]);
    const typo = await callTool(client, "get_operation_by_id", { name: "memos", operation_id: "MemoService_ListMemo" });
    expect(typo).toMatchObject({ isError: true, structured: { error: true } });
    expect(typo.structured.message).toMatch(/Closest operationIds: MemoService_ListMemos/);
  });

  it("effective security: operation overrides global, [] means public", async () => {
    const museum = await callTool(client, "get_operation_by_id", { name: "museum", operation_id: "getMuseumHours" });
    const details = museum.structured.details as Record<string, unknown>;
    expect(details).toMatchObject({ security_source: "global", public: false });
    const galaxyPaths = await callTool(client, "search_endpoints", { name: "galaxy", limit: 200 });
    const results = galaxyPaths.structured.results as { operationId: string }[];
    const views = await Promise.all(
      results.map((r) => callTool(client, "get_operation_by_id", { name: "galaxy", operation_id: r.operationId })),
    );
    const publicOps = views.filter((v) => (v.structured.details as { public: boolean }).public);
    expect(publicOps.length).toBeGreaterThan(0);
    for (const view of publicOps) {
      const security = (view.structured.details as { security: object[] }).security;
      expect(security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0)).toBe(true);
    }
    expect(views.length - publicOps.length).toBeGreaterThan(0);
  });

  it("get_schema_details keeps $refs and lists them, inlines on request, survives recursion", async () => {
    const memo = await callTool(client, "get_schema_details", { name: "memos", schema_name: "Memo" });
    expect(memo.structured).toMatchObject({ schema_name: "Memo", type: "object", required: ["state", "content", "visibility"] });
    expect(memo.structured.referenced_schemas).toEqual(expect.arrayContaining(["Attachment", "Location", "MemoRelation", "Reaction"]));
    const inlined = await callTool(client, "get_schema_details", { name: "memos", schema_name: "Memo", inline_depth: 2 });
    expect(JSON.stringify(inlined.structured)).not.toContain('"$ref":"#/components/schemas/Location"');
    const planet = await callTool(client, "get_schema_details", { name: "galaxy", schema_name: "planet", inline_depth: 3 });
    expect(planet.isError).toBe(false);
    const swagger = await callTool(client, "get_schema_details", { name: "docker", schema_name: "containersummary" });
    expect(swagger.structured.schema_name).toBe("ContainerSummary");
    const missing = await callTool(client, "get_schema_details", { name: "memos", schema_name: "Memmo" });
    expect(missing.structured.message).toMatch(/Schema 'Memmo' not found in API 'memos'\. Closest schemas: Memo/);
  });

  it("list_tags and get_endpoints_by_tag", async () => {
    expect((await callTool(client, "list_tags", { name: "museum" })).structured).toEqual({
      count: 3,
      total: 3,
      next_cursor: null,
      tags: expect.arrayContaining([expect.objectContaining({ name: "Operations", description: expect.any(String) })]),
    });
    const byTag = await callTool(client, "get_endpoints_by_tag", { name: "docker", tag: "container", limit: 5 });
    expect(byTag.structured).toMatchObject({ tag: "Container", count: 5, next_cursor: "5" });
    expect(byTag.structured.total).toBeGreaterThan(20);
    expect(Object.keys((byTag.structured.endpoints as object[])[0] as object)).toEqual(["path", "method", "operationId", "summary"]);
    const next = await callTool(client, "get_endpoints_by_tag", { name: "docker", tag: "Container", limit: 5, cursor: "5" });
    expect(next.structured.endpoints).not.toEqual(byTag.structured.endpoints);
    const unknown = await callTool(client, "get_endpoints_by_tag", { name: "docker", tag: "Containr" });
    expect(unknown.structured.message).toMatch(/Tag 'Containr' not found in API 'docker'\. Did you mean 'Container'\?/);
  });

  it("list_all_paths is paged with a total", async () => {
    const first = await callTool(client, "list_all_paths", { name: "docker", limit: 10 });
    expect(first.structured).toMatchObject({ count: 10, total: 98, next_cursor: "10" });
    expect((first.structured.paths as object[])[0]).toEqual({ path: "/containers/json", methods: ["get"] });
    const bad = await callTool(client, "list_all_paths", { name: "docker", cursor: "nope" });
    expect(bad.structured.message).toBe("invalid cursor 'nope'");
  });

  it("search_endpoints ranks, filters by method and tag, pages, and copes with typos", async () => {
    const ranked = await callTool(client, "search_endpoints", { name: "docker", keyword: "container logs", limit: 3 });
    expect((ranked.structured.results as { operationId: string }[])[0]?.operationId).toBe("ContainerLogs");
    const typo = await callTool(client, "search_endpoints", { name: "docker", keyword: "contaner inspct", limit: 3 });
    expect((typo.structured.results as { operationId: string }[])[0]?.operationId).toBe("ContainerInspect");
    const filtered = await callTool(client, "search_endpoints", {
      name: "memos",
      keyword: "memo",
      method: "DELETE",
      tag: "memoservice",
      limit: 50,
    });
    const results = filtered.structured.results as { method: string; tags: string[] }[];
    expect(results.length).toBeGreaterThan(1);
    for (const result of results) {
      expect(result.method).toBe("delete");
      expect(result.tags).toContain("MemoService");
    }
    const again = await callTool(client, "search_endpoints", {
      name: "memos",
      keyword: "memo",
      method: "DELETE",
      tag: "memoservice",
      limit: 50,
    });
    expect(again.structured).toEqual(filtered.structured);
    const all = await callTool(client, "search_endpoints", { name: "memos" });
    expect(all.structured).toMatchObject({ count: 20, total: 73, next_cursor: "20" });
  });

  it("shows the first sentence of an operation's description where it has no summary (as Stripe writes them), in searches and tag lists", async () => {
    const path = new URL("../../fixtures/search/described-only.yaml", import.meta.url).pathname;
    await callTool(client, "load_openapi", { name: "described", url: path });
    const found = await callTool(client, "search_endpoints", { name: "described", keyword: "refund", limit: 5 });
    const summaries = Object.fromEntries(
      (found.structured.results as { operationId: string; summary: string }[]).map((row) => [row.operationId, row.summary]),
    );
    expect(summaries).toMatchObject({
      PostRefunds: "When you create a new refund, you must specify a Charge or a PaymentIntent object on which to create it.",
      GetRefunds: "List all refunds",
    });
    const tagged = await callTool(client, "get_endpoints_by_tag", { name: "described", tag: "Refunds" });
    expect((tagged.structured.endpoints as { summary: string }[]).every((row) => row.summary.length > 0)).toBe(true);
    // An operation with neither keeps an empty summary.
    const bare = await callTool(client, "get_endpoints_by_tag", { name: "described", tag: "Charges" });
    expect((bare.structured.endpoints as { summary: string }[])[0]?.summary).toBe("");
    await callTool(client, "unload_api", { name: "described" });
  });

  it("exports Markdown", async () => {
    const markdown = await callTool(client, "get_operation_by_id", {
      name: "memos",
      operation_id: "MemoService_CreateMemo",
      format: "markdown",
    });
    expect(markdown.text).toMatch(/^## POST \/api\/v1\/memos\n/);
    expect(markdown.text).toContain("| memoId | query | no | string |");
    expect(markdown.structured).toEqual({ format: "markdown", markdown: markdown.text });
    const search = await callTool(client, "search_endpoints", { name: "memos", keyword: "reaction", format: "markdown", limit: 3 });
    expect(search.text).toMatch(/^## Search 'reaction' in memos\n\n3 of \d+ shown\./);
    const schema = await callTool(client, "get_schema_details", { name: "memos", schema_name: "Reaction", format: "markdown" });
    expect(schema.text).toMatch(/^## Schema Reaction\n/);
  });

  it("compares two loaded versions", async () => {
    const dir = await import("node:fs/promises").then((fs) => fs.mkdtemp(`${new URL("../../..", import.meta.url).pathname}.tmp-compare-`));
    const fs = await import("node:fs/promises");
    try {
      const text = await fs.readFile(MEMOS, "utf8");
      const changed = text
        .replace("    /api/v1/memos/{memo}/reactions/{reaction}:", "    /api/v1/memos/{memo}/reactionz/{reaction}:")
        .replace("The content of the memo in Markdown format.", "The content of the memo, in Markdown.");
      await fs.writeFile(`${dir}/v2.yaml`, changed);
      expect((await callTool(client, "load_openapi", { name: "memos-v2", url: `${dir}/v2.yaml` })).isError).toBe(false);
      const { structured } = await callTool(client, "compare_apis", { base: "memos", target: "memos-v2" });
      expect(structured.added).toMatchObject({
        total: 1,
        items: [{ method: "DELETE", path: "/api/v1/memos/{memo}/reactionz/{reaction}" }],
      });
      expect(structured.removed).toMatchObject({ total: 1, items: [{ path: "/api/v1/memos/{memo}/reactions/{reaction}" }] });
      expect(structured.schemas).toEqual({
        added: { total: 0, items: [] },
        removed: { total: 0, items: [] },
        changed: { total: 1, items: ["Memo"] },
      });
      const changes = (structured.changed as { items: { operationId: string; changes: string[] }[] }).items;
      expect(changes.find((c) => c.operationId === "MemoService_GetMemo")?.changes).toEqual(["schema:Memo"]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("answers unknown APIs and bad arguments with the error shape", async () => {
    expect((await callTool(client, "list_tags", { name: "memoss" })).structured).toEqual({
      error: true,
      message: "API 'memoss' not found. Did you mean 'memos'? Available APIs: docker, docker2, galaxy, memos, memos-v2, museum",
    });
    const bad = await callTool(client, "search_endpoints", { name: "memos", limit: 0, extra: 1 });
    expect(bad.isError).toBe(true);
    expect(bad.structured.message).toMatch(/limit: must be >= 1.*unknown property "extra"|unknown property "extra".*limit: must be >= 1/);
    // list_apis shows each description's opening: Docker's runs to 2,478 characters.
    const listed = (await callTool(client, "list_apis", { limit: 200 })).structured.apis as { name: string; description: string }[];
    const docker = listed.find((api) => api.name === "docker")?.description ?? "";
    expect(docker).toMatch(/^The Engine API is an HTTP API.{250,}… \[truncated: \d+ more characters\]$/s);
    // A caller that guessed the argument's name hears the names the tool takes.
    const guessed = await callTool(client, "search_endpoints", { name: "memos", query: "memo" });
    expect(guessed.structured.message).toMatch(/unknown property "query" \(it takes [^)]*\bkeyword\b/);
  });

  it("refuses local files outside the configured roots", async () => {
    const outside = await callTool(client, "load_openapi", { name: "passwd", url: "/etc/passwd" });
    expect(outside.structured.message).toMatch(/local files may only be loaded from/);
  });
});
