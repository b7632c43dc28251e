import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/free-port.js";
import { startAuthorizationServer } from "../helpers/authorization-server.js";
import { postFrom } from "../helpers/loopback-post.js";
import { signedInClient, TestOAuthProvider } from "../helpers/oauth-client.js";
import { callTool, fileRoots, MEMOS, MODERN_META, MUSEUM, startSearch } from "../helpers/search-server.js";

describe("the search server as an OAuth resource server: reading, loading and other users' documents by scope", () => {
  let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let server: Awaited<ReturnType<typeof startSearch>>;
  let resource: string;

  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer({ scopes: "apis:read apis:load apis:admin" });
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    server = await startSearch([
      "--port",
      String(port),
      "--memory",
      "--auth-mode",
      "resource",
      "--auth-issuer",
      authorizationServer.issuer.href,
      "--public-url",
      `http://127.0.0.1:${port}`,
      ...fileRoots(),
    ]);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await authorizationServer?.close();
  });

  /** An SDK client whose every request carries a token for `subject` with these scopes. */
  async function clientAs(subject: string, scope: string): Promise<Client> {
    const token = await authorizationServer.accessToken(resource, { sub: subject, scope });
    const client = new Client({ name: subject, version: "1" });
    await client.connect(new StreamableHTTPClientTransport(server.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  }

  it("the SDK client signs in from the URL alone and reads the catalogue; without a token, 401 naming the metadata", async () => {
    const refused = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain(
      `resource_metadata="http://127.0.0.1:${server.url.port}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", server.url))).json()) as {
      scopes_supported: string[];
    };
    expect(metadata.scopes_supported).toEqual(["apis:admin", "apis:load", "apis:read"]);
    const provider = new TestOAuthProvider();
    const { client } = await signedInClient(server.url, provider);
    try {
      expect((await callTool(client, "list_apis", {})).isError).toBe(false);
    } finally {
      await client.close();
    }
    // The same token in the 2026-07-28 era, which has no session: each request signs in by itself.
    const modern = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${provider.tokens()?.access_token}`,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "list_apis",
      },
      body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_apis","arguments":{},${MODERN_META}}}`,
    });
    expect(modern.status).toBe(200);
    expect(await modern.text()).toContain('"apis"');
  });

  it("refuses a load without the load scope (403), and another user's replace or unload without the administrative one", async () => {
    const reader = await clientAs("carol", "apis:read");
    const alice = await clientAs("alice", "apis:read apis:load");
    const bob = await clientAs("bob", "apis:read apis:load");
    const admin = await clientAs("root", "apis:read apis:load apis:admin");
    try {
      const denied = await reader
        .callTool({ name: "load_openapi", arguments: { name: "memos", url: MEMOS } })
        .catch((error: unknown) => error);
      expect(String(denied)).toContain("this call needs the scope apis:load");
      const raw = await fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${await authorizationServer.accessToken(resource, { sub: "carol", scope: "apis:read" })}`,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "unload_api", arguments: { name: "memos" } } }),
      });
      expect(raw.status).toBe(403);
      expect(raw.headers.get("www-authenticate")).toContain(
        'error="insufficient_scope", error_description="this call needs the scope apis:load", scope="apis:read apis:load"',
      );
      expect((await callTool(alice, "load_openapi", { name: "memos", url: MEMOS })).isError).toBe(false);
      const replaced = await callTool(bob, "load_openapi", { name: "memos", url: MUSEUM });
      expect(replaced.text).toContain(
        "'memos' was loaded by another user: to replace it you need the catalogue's administrative scope (apis:admin; sign in again with it)",
      );
      const removed = await callTool(bob, "unload_api", { name: "memos" });
      expect(removed.text).toContain("to remove it you need the catalogue's administrative scope");
      // The document is still alice's, as she loaded it; the administrator may replace it, and alice may remove her own.
      expect((await callTool(reader, "get_auth_info", { name: "memos" })).isError).toBe(false);
      expect((await callTool(admin, "load_openapi", { name: "memos", url: MEMOS })).isError).toBe(false);
      expect((await callTool(bob, "load_openapi", { name: "bobs", url: MUSEUM })).isError).toBe(false);
      expect((await callTool(bob, "unload_api", { name: "bobs" })).isError).toBe(false);
      expect((await callTool(admin, "unload_api", { name: "memos" })).isError).toBe(false);
    } finally {
      await Promise.all([reader, alice, bob, admin].map((client) => client.close()));
    }
  });

  it("counts sessions per signed-in user, not per address: one user's flood displaces only that user's sessions", async () => {
    const port = await freePort();
    const capped = await startSearch([
      "--port",
      String(port),
      "--memory",
      "--max-sessions-per-client",
      "2",
      "--auth-mode",
      "resource",
      "--auth-issuer",
      authorizationServer.issuer.href,
      "--public-url",
      `http://127.0.0.1:${port}`,
    ]);
    const audience = `http://127.0.0.1:${port}/mcp`;
    const bearer = async (sub: string) => ({
      authorization: `Bearer ${await authorizationServer.accessToken(audience, { sub, scope: "apis:read" })}`,
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "s", version: "1" } },
    };
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    try {
      const bob = await bearer("bob");
      const bobs = await postFrom(capped.url, "127.0.0.1", initialize, { headers: bob });
      expect(bobs.session).toBeDefined();
      const alice = await bearer("alice");
      for (let n = 0; n < 4; n++) {
        const opened = await postFrom(capped.url, "127.0.0.1", initialize, { headers: alice });
        await postFrom(capped.url, "127.0.0.1", list, { headers: alice, session: opened.session ?? "" });
      }
      // Bob, at the same address, keeps his session.
      expect((await postFrom(capped.url, "127.0.0.1", list, { headers: bob, session: bobs.session ?? "" })).status).toBe(200);
    } finally {
      await capped.close();
    }
  });
});
