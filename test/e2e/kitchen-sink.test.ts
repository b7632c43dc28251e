import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type RunningServer, silentLogger, startServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auth, upstream as documented, serverIdentity, tools } from "../fixtures/kitchen-sink/generated/index.js";
import { connectClient, testEnvironment } from "../helpers/memos-server.js";
import { type RecordedRequest, sendJson, startUpstream } from "../helpers/upstream.js";

const THING = { id: "t1", name: "Thing", note: null };

describe("kitchen-sink server: every parameter, body, response and credential kind", () => {
  let api: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let client: Client;
  let tokenRequests = 0;
  let acceptedToken = "tok-1";
  const last = () => api.requests.filter((r) => r.path !== "/token").at(-1) as RecordedRequest;

  beforeAll(async () => {
    api = await startUpstream();
    server = await startServer({
      identity: serverIdentity,
      tools,
      auth,
      log: silentLogger,
      env: {
        BEARER_AUTH_TOKEN: "server-bearer",
        API_KEY_HEADER_API_KEY: "header-key",
        API_KEY_QUERY_API_KEY: "query-key",
        API_KEY_COOKIE_API_KEY: "cookie-key",
        OAUTH_CLIENT_CLIENT_ID: "client",
        OAUTH_CLIENT_CLIENT_SECRET: "s3cret",
        OAUTH_CLIENT_TOKEN_URL: new URL("/token", api.url).href,
      },
      environment: testEnvironment(new URL("/v1", api.url)),
    });
    client = await connectClient(server.url, { Authorization: "Bearer caller-token", "X-Request-Id": "req-7" });
  });
  beforeEach(() => {
    api.requests.length = 0;
    api.respondWith((request, res) => {
      if (request.path === "/token") {
        tokenRequests++;
        return sendJson(res, 200, { access_token: acceptedToken, token_type: "Bearer", expires_in: 3600 });
      }
      if (request.path === "/v1/notes") {
        if (request.headers.authorization !== `Bearer ${acceptedToken}`) return sendJson(res, 401, { message: "token expired" });
        res.writeHead(200, { "content-type": "text/plain" });
        return res.end(`noted: ${request.body}`);
      }
      if (request.path === "/v1/files/report.bin" && request.method === "GET") {
        res.writeHead(200, { "content-type": "application/pdf" });
        return res.end(Buffer.alloc(3000, 7));
      }
      if (request.path === "/v1/files/report.bin") return res.writeHead(204).end();
      if (request.path === "/v1/files") return sendJson(res, 200, { size: request.body.length });
      if (request.path === "/v1/things" && request.method === "GET") return sendJson(res, 200, [THING]);
      sendJson(res, request.method === "POST" ? 201 : 200, THING);
    });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await api.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as Record<string, unknown>;
  };

  it("knows the documented server and its variables", () => {
    expect(documented).toEqual({ defaultBaseUrl: "https://eu.api.example.com/v1" });
  });

  it("sends path, colliding query names, exploded-false arrays, headers and cookies; server-held bearer wins", async () => {
    await call("get_thing_by_id", {
      id: "t 1",
      query_id: 5,
      query_body: true,
      expand: ["owner", "parts"],
      "X-Tenant": "acme",
      session: "s1",
    });
    const request = last();
    expect(request.path).toBe("/v1/things/t%201");
    expect(Object.fromEntries(request.query)).toEqual({ expand: "owner,parts", id: "5", body: "true" });
    expect(request.headers).toMatchObject({
      "x-tenant": "acme",
      cookie: "session=s1",
      authorization: "Bearer server-bearer",
      "x-request-id": "req-7",
    });
  });

  it("passes the caller's Authorization through for a public operation, wraps a bare array, encodes deepObject", async () => {
    const result = await call("list_things_v2", { filter: { color: "red", size: 2 } });
    expect(result).toEqual({ result: [{ id: "t1", name: "Thing", note: null }] });
    expect(last().query.toString()).toBe("filter%5Bcolor%5D=red&filter%5Bsize%5D=2");
    expect(last().headers.authorization).toBe("Bearer caller-token");
  });

  it("names an operation without operationId from its route and sends a form body", async () => {
    await call("post_things", { body: { name: "n", tags: ["a", "b"], meta: { a: "x" } } });
    expect(last()).toMatchObject({ method: "POST", path: "/v1/things", body: "name=n&tags=a&tags=b&meta%5Ba%5D=x" });
    expect(last().headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("sends merge-patch JSON without read-only fields (accepted, never sent)", async () => {
    const { tools: listed } = await client.listTools();
    const properties = listed.find((tool) => tool.name === "things_update")?.inputSchema.properties ?? {};
    const body = (properties as Record<string, { properties: Record<string, object>; required: string[] }>).body;
    expect(body?.properties.id).toEqual({ description: "Read-only: accepted and ignored (never sent).", $ref: "#/$defs/any" });
    expect(body?.required).toEqual(["name"]);
    await call("things_update", { id: "t1", body: { id: "t1", name: "new", note: null } });
    expect(last().headers["content-type"]).toBe("application/merge-patch+json");
    expect(JSON.parse(last().body)).toEqual({ name: "new", note: null });
  });

  it("uploads multipart file parts with the first satisfiable security alternative (API key header)", async () => {
    const file = { base64: Buffer.from("hello world").toString("base64"), filename: "hello.txt", contentType: "text/plain" };
    await call("upload_file", { body: { file, attachments: [{ base64: "AAEC" }], caption: "hi", meta: { kind: "doc" } } });
    const request = last();
    expect(request.headers["x-api-key"]).toBe("header-key");
    // One identity per call: the server-held key, and not the caller's Authorization beside it.
    expect(request.headers.authorization).toBeUndefined();
    const form = await new Request("http://x/", {
      method: "POST",
      headers: { "content-type": String(request.headers["content-type"]) },
      body: request.body,
    }).formData();
    const part = form.get("file") as File;
    expect([part.name, part.type, await part.text()]).toEqual(["hello.txt", "text/plain", "hello world"]);
    expect((form.get("attachments") as File).size).toBe(3);
    expect(form.get("caption")).toBe("hi");
    // An object field is a JSON part (Content-Type: application/json, no filename), which parsers read as text.
    expect(form.get("meta")).toBe('{"kind":"doc"}');
  });

  it("puts raw bytes with an API key in the query, and maps 204 to { ok: true }", async () => {
    expect(await call("put_raw_file", { name: "report.bin", body: { base64: Buffer.from([1, 2, 3]).toString("base64") } })).toEqual({
      ok: true,
    });
    expect(last().query.get("api_key")).toBe("query-key");
    expect(last().headers["content-type"]).toBe("application/octet-stream");
  });

  it("summarises a binary response (type, size, digest) and sends a cookie API key", async () => {
    const summary = await call("download_file", { name: "report.bin" });
    expect(summary).toEqual({ contentType: "application/pdf", size: 3000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(last().headers.cookie).toBe("key=cookie-key");
  });

  it("fetches, caches and refreshes an OAuth2 client-credentials token; sends and returns text", async () => {
    tokenRequests = 0;
    expect(await call("post_note", { body: "remember" })).toEqual({ result: "noted: remember" });
    expect(await call("post_note", { body: "again" })).toEqual({ result: "noted: again" });
    expect(tokenRequests).toBe(1);
    const tokenCall = api.requests.find((r) => r.path === "/token");
    expect(tokenCall?.headers.authorization).toBe(`Basic ${Buffer.from("client:s3cret").toString("base64")}`);
    expect(tokenCall?.body).toBe("grant_type=client_credentials&scope=notes%3Awrite");
    acceptedToken = "tok-2";
    expect(await call("post_note", { body: "after rotation" })).toEqual({ result: "noted: after rotation" });
    expect(tokenRequests).toBe(2);
    expect(last().headers["content-type"]).toBe("text/plain");
  });

  it("never lets one call's Authorization reach another call's request", async () => {
    const callers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => connectClient(server.url, { Authorization: `Bearer user-${i}` })),
    );
    try {
      await Promise.all(callers.flatMap((c) => Array.from({ length: 10 }, () => c.callTool({ name: "list_things_v2", arguments: {} }))));
      const seen = api.requests.map((r) => r.headers.authorization);
      expect(seen).toHaveLength(80);
      for (let i = 0; i < 8; i++) expect(seen.filter((value) => value === `Bearer user-${i}`)).toHaveLength(10);
    } finally {
      await Promise.all(callers.map((c) => c.close()));
    }
  });
});
