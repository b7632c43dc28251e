import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inRequestScope } from "../../runtime/base/request-scope.js";
import { freePort } from "../../scripts/free-port.js";
import { type Catalogue, searchSignIn } from "../../search/catalogue/index.js";
import { parseSearchArguments, startSearchServer } from "../../search/command.js";
import { SEARCH_TOOLS } from "../../search/tools/index.js";
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

  it("checks every message of a JSON-RPC batch: a reader's one-element batch that loads or unloads gets 403, and nothing changes", async () => {
    const reader = await authorizationServer.accessToken(resource, { sub: "carol", scope: "apis:read" });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${reader}`,
    };
    const opened = await fetch(server.url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "batch", version: "1" } },
      }),
    });
    const session = opened.headers.get("mcp-session-id") ?? "";
    await opened.text();
    const call = (id: number, name: string, args: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    });
    for (const batch of [
      [call(2, "load_openapi", { name: "carols", url: MEMOS })],
      [call(3, "list_apis", {}), call(4, "unload_api", { name: "carols" })],
    ]) {
      const answer = await fetch(server.url, {
        method: "POST",
        headers: { ...headers, "mcp-session-id": session },
        body: JSON.stringify(batch),
      });
      expect(answer.status).toBe(403);
      expect(answer.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    }
    const admin = await clientAs("root", "apis:read apis:admin");
    try {
      expect((await callTool(admin, "list_apis", {})).text).not.toContain("carols");
    } finally {
      await admin.close();
    }
  });

  it("the load and unload tools check the load scope themselves, however a call reaches them", async () => {
    const signIn = searchSignIn({
      authMode: "resource",
      authIssuer: authorizationServer.issuer.href,
      publicUrl: "http://127.0.0.1:1",
      authReadScope: "apis:read",
      authLoadScope: "apis:load",
      authAdminScope: "apis:admin",
    });
    // The check comes first: this catalogue is never reached.
    const context = { catalogue: {} as Catalogue, signIn };
    const reader = { subject: "carol", scopes: new Set(["apis:read"]), token: "t", expiresAt: Date.now() + 60_000, challenge: () => "" };
    for (const name of ["load_openapi", "unload_api"]) {
      const tool = SEARCH_TOOLS.find((entry) => entry.name === name);
      const run = () => tool?.handler({ name: "memos", url: MEMOS }, context);
      await expect(
        inRequestScope({ caller: "user carol", gone: new AbortController().signal, signedIn: reader }, async () => run()),
      ).rejects.toThrow("this call needs the scope apis:load");
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

describe("the search server with the SDK's OAuth client as it is: each user gets the scopes they are allowed at the first sign-in", () => {
  it("a user allowed apis:load sees and calls load_openapi without signing in by hand; a reader sees neither load nor unload", async () => {
    const allowed: Record<string, string> = { dana: "apis:read apis:load", erin: "apis:read" };
    let user = "dana";
    const authorizationServer = await startAuthorizationServer({
      scopes: "apis:read apis:load apis:admin",
      user: () => user,
      allowed: (account) => allowed[account],
    });
    const port = await freePort();
    const server = await startSearch([
      ...["--port", String(port), "--memory", "--auth-mode", "resource", "--auth-issuer", authorizationServer.issuer.href],
      ...["--public-url", `http://127.0.0.1:${port}`, ...fileRoots()],
    ]);
    try {
      const loader = await signedInClient(server.url, new TestOAuthProvider());
      try {
        expect((await loader.client.listTools()).tools.map((tool) => tool.name)).toEqual(
          expect.arrayContaining(["load_openapi", "unload_api"]),
        );
        expect((await callTool(loader.client, "load_openapi", { name: "memos", url: MEMOS })).isError).toBe(false);
      } finally {
        await loader.client.close();
      }
      user = "erin";
      const reader = await signedInClient(server.url, new TestOAuthProvider());
      try {
        const names = (await reader.client.listTools()).tools.map((tool) => tool.name);
        expect(names).toContain("list_apis");
        expect(names).not.toContain("load_openapi");
        expect(names).not.toContain("unload_api");
        expect((await callTool(reader.client, "list_apis", {})).text).toContain("memos");
      } finally {
        await reader.client.close();
      }
    } finally {
      await server.close();
      await authorizationServer.close();
    }
  });
});

describe("the search server's documents keep their owners: across restarts, and the operator's own", () => {
  let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let store: string;
  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer({ scopes: "apis:read apis:load apis:admin" });
    store = mkdtempSync(join(tmpdir(), "search-owners-"));
  }, 60_000);
  afterAll(async () => {
    await authorizationServer?.close();
    rmSync(store, { recursive: true, force: true });
  });

  const lines: Record<string, unknown>[] = [];
  const log = {
    info: (message: string, fields?: Record<string, unknown>) => lines.push({ message, ...fields }),
    warn: (message: string, fields?: Record<string, unknown>) => lines.push({ message, ...fields }),
    error: (message: string, fields?: Record<string, unknown>) => lines.push({ message, ...fields }),
  };

  /** The search server on its folder store, the operator's `company` loaded at start; clients by subject and scopes. */
  async function startOnStore() {
    const port = await freePort();
    const running = await startSearchServer(
      parseSearchArguments([
        ...["--port", String(port), "--store", store, "--auth-mode", "resource", "--auth-issuer", authorizationServer.issuer.href],
        ...["--public-url", `http://127.0.0.1:${port}`, "--load", `company=${MUSEUM}`, ...fileRoots()],
      ]),
      log,
    );
    await running.catalogue.ready;
    const as = async (subject: string, scope: string) => {
      const token = await authorizationServer.accessToken(`http://127.0.0.1:${port}/mcp`, { sub: subject, scope });
      const client = new Client({ name: subject, version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(running.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
      );
      return client;
    };
    return { running, as };
  }

  it("refuses another user's replace or unload after a restart, and the operator's start-up documents to all but the administrative scope", async () => {
    const first = await startOnStore();
    const alice = await first.as("alice", "apis:read apis:load");
    const bob = await first.as("bob", "apis:read apis:load");
    try {
      expect((await callTool(alice, "load_openapi", { name: "alices", url: MEMOS })).isError).toBe(false);
      const operators = await callTool(bob, "load_openapi", { name: "company", url: MEMOS });
      expect(operators.text).toContain(
        "'company' is the operator's (loaded when the server started): to replace it you need the catalogue's administrative scope",
      );
      expect((await callTool(bob, "unload_api", { name: "company" })).isError).toBe(true);
    } finally {
      await Promise.all([alice.close(), bob.close()]);
      await first.running.close();
    }
    const second = await startOnStore();
    const bobAgain = await second.as("bob", "apis:read apis:load");
    const aliceAgain = await second.as("alice", "apis:read apis:load");
    const admin = await second.as("root", "apis:read apis:load apis:admin");
    try {
      const replaced = await callTool(bobAgain, "load_openapi", { name: "alices", url: MUSEUM });
      expect(replaced.text).toContain("'alices' was loaded by another user: to replace it you need the catalogue's administrative scope");
      expect((await callTool(bobAgain, "unload_api", { name: "alices" })).isError).toBe(true);
      expect((await callTool(bobAgain, "load_openapi", { name: "company", url: MEMOS })).isError).toBe(true);
      // Its owner still may; so may the administrative scope, for the operator's document too.
      expect((await callTool(aliceAgain, "load_openapi", { name: "alices", url: MUSEUM })).isError).toBe(false);
      expect((await callTool(admin, "load_openapi", { name: "company", url: MEMOS })).isError).toBe(false);
      expect((await callTool(admin, "unload_api", { name: "alices" })).isError).toBe(false);
      // Each change is one audit line naming who made it; a refused one, the reason.
      const changes = lines.filter((line) => line.message === "audit" && line.event === "catalogue");
      expect(changes).toEqual([
        expect.objectContaining({ action: "load", api: "alices", user: "alice", source: MEMOS }),
        expect.objectContaining({ action: "replace", api: "alices", user: "alice" }),
        expect.objectContaining({ action: "replace", api: "company", user: "root" }),
        expect.objectContaining({ action: "unload", api: "alices", user: "root" }),
      ]);
    } finally {
      await Promise.all([bobAgain.close(), aliceAgain.close(), admin.close()]);
      await second.running.close();
    }
  });
});
