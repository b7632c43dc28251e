import { readFileSync } from "node:fs";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
  UnauthorizedError as UnauthorizedErrorV2,
} from "@modelcontextprotocol/client";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { generateKeyPair, importJWK, type JWTPayload, SignJWT } from "jose";
import type { ClientMetadata } from "oidc-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools as memosTools, serverIdentity } from "../../generated/index.js";
import { type Logger, silentLogger } from "../../runtime/base/logger.js";
import type { ToolDefinition } from "../../runtime/base/tool.js";
import type { AuthDefinition } from "../../runtime/call/credentials.js";
import type { RunningServer } from "../../runtime/http/http-server.js";
import { readServerEnvironment } from "../../runtime/serve/env.js";
import { startServer } from "../../runtime/serve/serve.js";
import { freePort } from "../../scripts/free-port.js";
import { startAuthorizationServer, TOKEN_EXCHANGE } from "../helpers/authorization-server.js";
import { signedInClient, TestOAuthProvider } from "../helpers/oauth-client.js";
import { sendJson, startUpstream } from "../helpers/upstream.js";

/** A raw POST to `/mcp`, as a client of either era sends it. */
async function post(url: URL, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "", text: await response.text() };
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** A key a test signs tokens with: the authorization server's own, or one it does not publish. */
type SigningKey = { jwk: Parameters<typeof importJWK>[0]; kid: string };

/**
 * A JWT access token from `server` (signed with its key, or `key`; typed `typ` when given): `iss`, `scope: memos:read`
 * and ten minutes' life, then `claims`.
 */
async function signedToken(
  server: { issuer: URL; privateJwk: SigningKey["jwk"]; kid: string },
  claims: JWTPayload,
  key?: SigningKey,
  typ?: string,
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: server.issuer.origin, scope: "memos:read", iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: "ES256", kid: key?.kid ?? server.kid, ...(typ ? { typ } : {}) })
    .sign(await importJWK(key?.jwk ?? server.privateJwk, "ES256"));
}

/** The Memos server's own confidential client at the authorization server, for exchange or introspection. */
const serverClient = (grantTypes: string[]): ClientMetadata => ({
  client_id: "memos-mcp",
  client_secret: "memos-mcp-secret",
  grant_types: grantTypes,
  response_types: [],
  redirect_uris: [],
  token_endpoint_auth_method: "client_secret_basic",
  id_token_signed_response_alg: "ES256",
});

/** The committed Memos server in resource mode for `issuer`, over a Memos upstream, with these variables besides. */
async function memosResourceServer(issuer: URL, variables: Record<string, string>, log: Logger = silentLogger) {
  const upstream = await startUpstream((_, res) => sendJson(res, 200, { memos: [], nextPageToken: "" }));
  const port = await freePort();
  const environment = readServerEnvironment({
    HOST: "127.0.0.1",
    PORT: String(port),
    API_BASE_URL: upstream.url.href,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AUTH_MODE: "resource",
    AUTH_ISSUER: issuer.href,
    ...variables,
  });
  const server = await startServer({ identity: serverIdentity, tools: memosTools, environment, log });
  return { upstream, server };
}

describe("the committed Memos server as an OAuth resource server, switched by environment alone", () => {
  let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;
  let mcp: URL;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer();
    upstream = await startUpstream((_, res) => sendJson(res, 200, { memos: [], nextPageToken: "" }));
    const port = await freePort();
    const log: Logger = {
      info: (message, fields) => lines.push({ message, ...fields }),
      warn: (message, fields) => lines.push({ message, ...fields }),
      error: (message, fields) => lines.push({ message, ...fields }),
    };
    const environment = readServerEnvironment({
      HOST: "127.0.0.1",
      PORT: String(port),
      API_BASE_URL: upstream.url.href,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_MODE: "resource",
      AUTH_ISSUER: authorizationServer.issuer.href,
      AUTH_SCOPES: "memos:read",
      UPSTREAM_AUTHORIZATION: "Bearer upstream-server-token",
    });
    server = await startServer({ identity: serverIdentity, tools: memosTools, environment, log });
    mcp = server.url;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await authorizationServer?.close();
  });

  it("answers a request without a token with 401 naming its metadata, which names the authorization server; /health stays open", async () => {
    const refused = await post(mcp, INITIALIZE);
    expect(refused.status).toBe(401);
    const metadataUrl = `http://127.0.0.1:${mcp.port}/.well-known/oauth-protected-resource/mcp`;
    // Every scope the server publishes, so that a client's first sign-in asks for all and the authorization server decides.
    expect(refused.challenge).toBe(`Bearer scope="memos:read memos:write", resource_metadata="${metadataUrl}"`);
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toEqual({
      resource: `http://127.0.0.1:${mcp.port}/mcp`,
      authorization_servers: [authorizationServer.issuer.origin],
      scopes_supported: ["memos:read", "memos:write"],
      bearer_methods_supported: ["header"],
    });
    expect(await (await fetch(new URL("/.well-known/oauth-protected-resource", mcp))).json()).toEqual(metadata);
    expect((await fetch(new URL("/health", mcp))).status).toBe(200);
    const get = await fetch(mcp, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(401);
  });

  it("the SDK client signs in from the URL alone (dynamic registration, PKCE, resource) and calls a tool; the upstream never sees the MCP token", async () => {
    const provider = new TestOAuthProvider();
    const { client } = await signedInClient(mcp, provider);
    try {
      expect(provider.signIns).toBe(1);
      const token = provider.tokens()?.access_token ?? "";
      const [, payload = ""] = token.split(".");
      expect(JSON.parse(Buffer.from(payload, "base64url").toString())).toMatchObject({
        aud: `http://127.0.0.1:${mcp.port}/mcp`,
        sub: "alice",
        scope: expect.stringContaining("memos:read"),
      });
      const before = upstream.requests.length;
      const result = await client.callTool({ name: "memo_list_memos", arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const sent = upstream.requests.slice(before);
      expect(sent.map((request) => request.headers.authorization)).toEqual(["Bearer upstream-server-token"]);
      expect(JSON.stringify(sent.map((request) => request.headers))).not.toContain(token);
      // The caller's identity is in the call's log line.
      expect(lines).toContainEqual(expect.objectContaining({ message: "tool call", tool: "memo_list_memos", user: "alice" }));
      // The same token in the 2026-07-28 era: a stateless call with the era's headers.
      const modern = await post(
        mcp,
        {
          jsonrpc: "2.0",
          id: 7,
          method: "tools/call",
          params: {
            name: "memo_list_memos",
            arguments: {},
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
          },
        },
        {
          authorization: `Bearer ${token}`,
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "memo_list_memos",
        },
      );
      expect(modern.status, modern.text).toBe(200);
      expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer upstream-server-token");
    } finally {
      await client.close();
    }
  });

  it("logs every refusal with its reason (and the user, when the token names one), but not a first request without a token", async () => {
    lines.length = 0;
    await post(mcp, INITIALIZE);
    expect(lines.filter((line) => line.message === "audit" && line.event === "refused")).toEqual([]);
    await post(mcp, INITIALIZE, { authorization: "Bearer not-a-token" });
    const reader = await authorizationServer.accessToken(mcp.href, { sub: "rita", scope: "memos:read" });
    await post(
      mcp,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memo_delete_memo", arguments: { memo: "1" } } },
      {
        authorization: `Bearer ${reader}`,
      },
    );
    const refusals = lines.filter((line) => line.message === "audit" && line.event === "refused");
    expect(refusals).toEqual([
      expect.objectContaining({ status: 401, reason: expect.stringContaining("cannot introspect"), from: "127.0.0.1" }),
      expect.objectContaining({ status: 403, reason: "this call needs the scope memos:write", user: "rita" }),
    ]);
    // Rita's token, seen for the first time, was a sign-in.
    expect(lines).toContainEqual(expect.objectContaining({ message: "audit", event: "sign-in", mode: "resource", user: "rita" }));
  });

  describe("refuses tokens it must not take, each with 401 invalid_token", () => {
    const now = () => Math.floor(Date.now() / 1000);
    /** A token signed with the authorization server's own key (or `key`), claims as given over valid ones. */
    const token = (claims: JWTPayload, key?: SigningKey, typ?: string) =>
      signedToken(authorizationServer, { aud: `http://127.0.0.1:${mcp.port}/mcp`, sub: "mallory", ...claims }, key, typ);
    const call = (bearer: string) => post(mcp, INITIALIZE, { authorization: `Bearer ${bearer}` });

    it("takes a well-formed token (so that each refusal below is the token's fault), typed as RFC 9068 says or as plain JWT", async () => {
      expect((await call(await token({}))).status).toBe(200);
      expect((await call(await token({}, undefined, "at+jwt"))).status).toBe(200);
      expect((await call(await token({}, undefined, "JWT"))).status).toBe(200);
    });

    it("reads scopes from scp as text (Entra ID) or a list (Okta), and a client acting for itself (no sub) by its client_id", async () => {
      expect((await call(await token({ scope: undefined, scp: "memos:read memos:write" }))).status).toBe(200);
      expect((await call(await token({ scope: undefined, scp: ["memos:read"] }))).status).toBe(200);
      // The scope this server requires, missing from both: refused for its scope, not read as granted.
      expect((await call(await token({ scope: undefined, scp: "memos:write" }))).status).toBe(403);
      expect((await call(await token({ sub: undefined, client_id: "nightly-report" }))).status).toBe(200);
      const refused = await call(await token({ sub: undefined }));
      expect(refused.status).toBe(401);
      expect(refused.challenge).toContain("names no subject");
    });

    it.each<[string, () => Promise<string>, string]>([
      ["for another audience", () => token({ aud: "http://127.0.0.1:1/mcp" }), "meant for another resource"],
      ["from another issuer", () => token({ iss: "http://127.0.0.1:2" }), "from another issuer"],
      ["expired", () => token({ exp: now() - 3600, iat: now() - 7200 }), "has expired"],
      ["not yet valid", () => token({ nbf: now() + 3600 }), "not valid yet"],
      [
        "unsigned (alg: none)",
        async () => {
          const [, payload] = (await token({})).split(".");
          return `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${payload}.`;
        },
        "signature algorithm is not accepted",
      ],
      [
        "HMAC-signed with the public key",
        async () => {
          const secret = new TextEncoder().encode(JSON.stringify(authorizationServer.publicJwk));
          return new SignJWT({ sub: "mallory", scope: "memos:read", aud: `http://127.0.0.1:${mcp.port}/mcp` })
            .setProtectedHeader({ alg: "HS256", kid: authorizationServer.kid })
            .setIssuer(authorizationServer.issuer.origin)
            .setIssuedAt()
            .setExpirationTime("10m")
            .sign(secret);
        },
        "signature algorithm is not accepted",
      ],
      [
        "with a tampered signature",
        async () => {
          const [header, payload, signature = ""] = (await token({})).split(".");
          const flipped = `${signature.slice(0, 10)}${signature[10] === "A" ? "B" : "A"}${signature.slice(11)}`;
          return `${header}.${payload}.${flipped}`;
        },
        "signature does not verify",
      ],
      [
        "signed with an unknown key",
        async () => {
          const { privateKey } = await generateKeyPair("ES256", { extractable: true });
          const { exportJWK } = await import("jose");
          return token({}, { jwk: await exportJWK(privateKey), kid: "unknown-key" });
        },
        "a key the authorization server does not publish",
      ],
      ["garbage", async () => "not-a-token", "cannot introspect"],
      ["that is an ID token (nonce, at_hash)", () => token({ nonce: "n-0S6_WzA2Mj", at_hash: "77QmUPtjPfzWtF2AnpK9RQ" }), "an ID token"],
      ["that is a Keycloak ID token (typ: ID)", () => token({ typ: "ID" }), "an ID token"],
      ["typed as another kind of token", () => token({}, undefined, "logout+jwt"), "is not an access token"],
      ["issued in the future", () => token({ iat: now() + 3600 }), "issued in the future"],
    ])("a token %s", async (_, make, reason) => {
      lines.length = 0;
      const refused = await call(await make());
      expect(refused.status).toBe(401);
      expect(refused.challenge).toContain('error="invalid_token"');
      expect(refused.challenge).toContain(reason);
      expect(refused.challenge).toContain("resource_metadata=");
      // Every refusal leaves its audit line, with its reason.
      expect(lines).toContainEqual(
        expect.objectContaining({ message: "audit", event: "refused", status: 401, reason: expect.stringContaining(reason) }),
      );
    });
  });
});

describe("scopes from the document: tools/list shows what the token may call, a missing scope asks for a step-up", () => {
  /** What the authorization server lets each user have: read only, until a test grants more. */
  const may: Record<string, string> = { bob: "memos:read", carol: "memos:read" };
  let user = "bob";
  const tool = (name: string, method: "GET" | "POST", scope: string): ToolDefinition => ({
    name,
    title: name,
    description: name,
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: method === "GET", destructiveHint: false, idempotentHint: method === "GET", openWorldHint: true },
    _meta: { method, path: `/${name}` },
    http: { method, path: `/${name}`, parameters: [], response: "json" },
    security: [{ notesAuth: [scope] }],
  });
  const auth: AuthDefinition = {
    schemes: { notesAuth: { type: "oauth2", env: { token: "NOTES_TOKEN" } } },
    passthrough: { authorization: true, headers: [] },
  };
  let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;

  beforeAll(async () => {
    // A client registered beforehand: a dynamically registered one may ask only for the scopes of its first sign-in.
    // notes-client holds no refresh token (the grant is not its); notes-client-2 does.
    authorizationServer = await startAuthorizationServer({
      user: () => user,
      allowed: (account) => may[account],
      refreshTokens: true,
      clients: [
        {
          client_id: "notes-client",
          token_endpoint_auth_method: "none",
          redirect_uris: ["http://127.0.0.1:9/callback"],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          id_token_signed_response_alg: "ES256",
        },
        {
          client_id: "notes-client-2",
          token_endpoint_auth_method: "none",
          redirect_uris: ["http://127.0.0.1:9/callback"],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          id_token_signed_response_alg: "ES256",
        },
      ],
    });
    upstream = await startUpstream((_, res) => sendJson(res, 200, { ok: true }));
    const port = await freePort();
    const environment = readServerEnvironment({
      HOST: "127.0.0.1",
      PORT: String(port),
      API_BASE_URL: upstream.url.href,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_MODE: "resource",
      AUTH_ISSUER: authorizationServer.issuer.href,
      AUTH_SCOPES: "memos:read",
      MCP_SESSIONS: "stateful",
    });
    server = await startServer({
      identity: { name: "notes", version: "1" },
      tools: [tool("list_notes", "GET", "memos:read"), tool("write_note", "POST", "memos:write")],
      auth,
      env: { NOTES_TOKEN: "server-held-notes-token" },
      environment,
      log: silentLogger,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await authorizationServer?.close();
  });

  it("publishes the operations' scopes; lists only list_notes to a read-only token; 403 on write_note, then a step-up sign-in that works", async () => {
    const metadata = (await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", server.url))).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.scopes_supported).toEqual(["memos:read", "memos:write"]);
    const provider = new TestOAuthProvider({ client_id: "notes-client" });
    const { client, transport } = await signedInClient(server.url, provider);
    try {
      expect((await client.listTools()).tools.map((listed) => listed.name)).toEqual(["list_notes"]);
      expect((await client.callTool({ name: "list_notes", arguments: {} })).isError).toBeFalsy();
      expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer server-held-notes-token");
      // Bob is granted write at the authorization server. The SDK (1.x) meets 403 insufficient_scope, signs in again
      // asking for the named scopes (holding no refresh token, it starts a new authorization), and the call goes through.
      may.bob = "memos:read memos:write";
      const stepUp = await client.callTool({ name: "write_note", arguments: {} }).catch((error: unknown) => error);
      expect(stepUp).toBeInstanceOf(UnauthorizedError);
      expect(provider.signIns).toBe(2);
      await transport.finishAuth(provider.code ?? "");
    } finally {
      await client.close();
    }
    const again = await signedInClient(server.url, provider);
    try {
      // The step-up sign-in's code, exchanged on the next connection, grants write.
      const scopes = JSON.parse(Buffer.from((provider.tokens()?.access_token ?? "").split(".")[1] ?? "", "base64url").toString()).scope;
      expect(String(scopes).split(" ")).toEqual(expect.arrayContaining(["memos:read", "memos:write"]));
      expect((await again.client.listTools()).tools.map((listed) => listed.name)).toEqual(["list_notes", "write_note"]);
      const written = await again.client.callTool({ name: "write_note", arguments: {} });
      expect(written.isError, JSON.stringify(written.content)).toBeFalsy();
    } finally {
      await again.client.close();
    }
  });

  it("a client holding a refresh token steps up too: the SDK's 2.x client signs in again for the wider grant (a refresh cannot widen it)", async () => {
    user = "carol";
    const provider = new TestOAuthProvider({ client_id: "notes-client-2" });
    const connect = async () => {
      const transport = new StreamableHTTPClientTransportV2(server.url, { authProvider: provider });
      const client = new ClientV2({ name: "step-up-2x", version: "1" });
      await client.connect(transport);
      return { client, transport };
    };
    let first = await connect().catch(async (error: unknown) => {
      if (!(error instanceof UnauthorizedErrorV2)) throw error;
      return undefined;
    });
    if (!first) {
      const transport = new StreamableHTTPClientTransportV2(server.url, { authProvider: provider });
      await transport.finishAuth(provider.callback);
      first = await connect();
    }
    expect(provider.tokens()?.refresh_token).toBeTruthy();
    try {
      expect((await first.client.listTools()).tools.map((listed) => listed.name)).toEqual(["list_notes"]);
      may.carol = "memos:read memos:write";
      const stepUp = await first.client.callTool({ name: "write_note", arguments: {} }).catch((error: unknown) => error);
      expect(stepUp).toBeInstanceOf(UnauthorizedErrorV2);
      expect(provider.signIns).toBe(2);
      await first.transport.finishAuth(provider.callback);
    } finally {
      await first.client.close();
    }
    const again = await connect();
    try {
      const written = await again.client.callTool({ name: "write_note", arguments: {} });
      expect(written.isError, JSON.stringify(written.content)).toBeFalsy();
    } finally {
      await again.client.close();
    }
  });
});

describe("each user's own upstream token, by token exchange (RFC 8693) at the authorization server", () => {
  let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;

  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer({ exchange: true, clients: [serverClient([TOKEN_EXCHANGE])] });
    ({ upstream, server } = await memosResourceServer(authorizationServer.issuer, {
      AUTH_UPSTREAM: "exchange",
      AUTH_CLIENT_ID: "memos-mcp",
      AUTH_CLIENT_SECRET: "memos-mcp-secret",
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await authorizationServer?.close();
  });

  it("sends each call with the token exchanged for the caller's (once, then cached), never the MCP token", async () => {
    const provider = new TestOAuthProvider();
    const { client } = await signedInClient(server.url, provider);
    try {
      const before = upstream.requests.length;
      for (let i = 0; i < 2; i++) expect((await client.callTool({ name: "memo_list_memos", arguments: {} })).isError).toBeFalsy();
      const sent = upstream.requests.slice(before).map((request) => request.headers.authorization);
      expect(sent).toEqual([expect.stringMatching(/^Bearer upstream-alice-/), sent[0]]);
      expect(sent[0]).not.toContain(provider.tokens()?.access_token ?? "none");
      expect(authorizationServer.exchanges).toEqual([{ subject: "alice", audience: upstream.url.origin }]);
    } finally {
      await client.close();
    }
  });
});

describe("opaque tokens, introspected at the authorization server (RFC 7662) as this server's own client", () => {
  let authorizationServer: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let server: RunningServer;

  beforeAll(async () => {
    authorizationServer = await startAuthorizationServer({ opaque: true, clients: [serverClient([])] });
    ({ upstream, server } = await memosResourceServer(authorizationServer.issuer, {
      AUTH_CLIENT_ID: "memos-mcp",
      AUTH_CLIENT_SECRET: "memos-mcp-secret",
      UPSTREAM_AUTHORIZATION: "Bearer upstream-server-token",
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    await authorizationServer?.close();
  });

  it("takes an active opaque token for this server and calls; refuses one it does not know", async () => {
    const provider = new TestOAuthProvider();
    const { client } = await signedInClient(server.url, provider);
    try {
      expect(provider.tokens()?.access_token.split(".")).toHaveLength(1);
      expect((await client.callTool({ name: "memo_list_memos", arguments: {} })).isError).toBeFalsy();
      expect(upstream.requests.at(-1)?.headers.authorization).toBe("Bearer upstream-server-token");
    } finally {
      await client.close();
    }
    const unknown = await post(server.url, INITIALIZE, { authorization: "Bearer no-such-token-at-all" });
    expect(unknown.status).toBe(401);
    expect(unknown.challenge).toContain("the token is not active");
  });
});

describe("resource mode's start-up", () => {
  it("says where the upstream credential comes from, and warns when there is none", async () => {
    const lines: string[] = [];
    const log: Logger = {
      info: (message) => lines.push(`info: ${message}`),
      warn: (message) => lines.push(`warn: ${message}`),
      error: (message) => lines.push(`error: ${message}`),
    };
    const port = await freePort();
    const environment = readServerEnvironment({
      HOST: "127.0.0.1",
      PORT: String(port),
      API_BASE_URL: "http://127.0.0.1:9",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_MODE: "resource",
      AUTH_ISSUER: "http://127.0.0.1:9",
    });
    const server = await startServer({ identity: serverIdentity, tools: memosTools, environment, log });
    await server.close();
    expect(lines).toContain("info: MCP callers sign in (resource mode)");
    expect(lines).toContain(
      "warn: resource mode with no upstream credential: signed-in callers' calls reach the upstream without one (set UPSTREAM_AUTHORIZATION, a scheme's variables, or AUTH_UPSTREAM=exchange)",
    );
    // The committed config's scope rule guards every write: no warning of open writes.
    expect(lines.some((line) => line.includes("need no scope"))).toBe(false);
  });

  it("warns when tools that change data need no scope beyond AUTH_SCOPES, naming them; refuses a plain-http PUBLIC_URL beyond loopback", async () => {
    const lines: string[] = [];
    const log: Logger = { info: () => {}, warn: (message) => lines.push(message), error: () => {} };
    const port = await freePort();
    const variables = {
      HOST: "127.0.0.1",
      PORT: String(port),
      API_BASE_URL: "http://127.0.0.1:9",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      AUTH_MODE: "resource",
      AUTH_ISSUER: "http://127.0.0.1:9",
      AUTH_SCOPES: "memos:read",
      UPSTREAM_AUTHORIZATION: "Bearer s",
    };
    // Memos' tools as a document without scopes (and no rule) would make them.
    const unguarded = memosTools.map(({ scopes: _, ...tool }) => tool);
    const server = await startServer({ identity: serverIdentity, tools: unguarded, environment: readServerEnvironment(variables), log });
    await server.close();
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^9 tool\(s\) that change data need no scope beyond AUTH_SCOPES, so every signed-in user may call them \(memo_create_memo, .* and 4 more\): give them one with auth.scopes/,
      ),
    );
    await expect(
      startServer({
        identity: serverIdentity,
        tools: memosTools,
        environment: readServerEnvironment({ ...variables, PUBLIC_URL: "http://mcp.example.com" }),
        log: silentLogger,
      }),
    ).rejects.toThrow("PUBLIC_URL must be https in resource mode (http only on loopback)");
  });
});

describe("the README's team runbook, followed as written, with the SDK's OAuth client", () => {
  /** The `-e NAME=VALUE` settings of the README's resource-mode `docker run`, as written. */
  function runbookSettings(): Record<string, string> {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Deploy for a team"), readme.indexOf("### Each user's own account at the API"));
    const command = /```sh\n([\s\S]*?AUTH_MODE=resource[\s\S]*?)```/.exec(section)?.[1] ?? "";
    const settings = [...command.matchAll(/-e ([A-Z_]+)=("[^"]*"|\S+)/g)].map(([, name = "", value = ""]) => [
      name,
      value.replace(/^"|"$/g, ""),
    ]);
    return Object.fromEntries(settings);
  }

  it("lets a writer see and call every tool, and a reader see only reads and call no write tool", async () => {
    const settings = runbookSettings();
    expect(Object.keys(settings).sort()).toEqual(["API_BASE_URL", "AUTH_ISSUER", "AUTH_MODE", "PUBLIC_URL", "UPSTREAM_AUTHORIZATION"]);
    // Keycloak as the runbook sets it up: a scope goes into a token only for a user who holds its role.
    const roles: Record<string, string> = { alice: "memos:read memos:write", bob: "memos:read" };
    let user = "alice";
    const keycloak = await startAuthorizationServer({ user: () => user, allowed: (account) => roles[account] });
    const upstream = await startUpstream((_, res) => sendJson(res, 200, { memos: [], nextPageToken: "" }));
    const port = await freePort();
    const environment = readServerEnvironment({
      ...settings,
      AUTH_ISSUER: keycloak.issuer.href,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      API_BASE_URL: upstream.url.href,
      HOST: "127.0.0.1",
      PORT: String(port),
    });
    const server = await startServer({ identity: serverIdentity, tools: memosTools, environment, log: silentLogger });
    try {
      const writes = memosTools.filter((tool) => tool.annotations.readOnlyHint !== true).map((tool) => tool.name);
      const writer = await signedInClient(server.url, new TestOAuthProvider());
      try {
        expect((await writer.client.listTools()).tools).toHaveLength(17);
        expect((await writer.client.callTool({ name: "memo_create_memo", arguments: { body: { content: "hi" } } })).isError).toBeFalsy();
      } finally {
        await writer.client.close();
      }
      user = "bob";
      const readerProvider = new TestOAuthProvider();
      const reader = await signedInClient(server.url, readerProvider);
      try {
        const listed = (await reader.client.listTools()).tools;
        expect(listed).toHaveLength(8);
        expect(listed.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      } finally {
        await reader.client.close();
      }
      const before = upstream.requests.length;
      const token = readerProvider.tokens()?.access_token ?? "";
      for (const name of writes) {
        const refused = await post(
          server.url,
          { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name, arguments: {} } },
          {
            authorization: `Bearer ${token}`,
          },
        );
        expect(refused.status, name).toBe(403);
        expect(refused.challenge).toContain('error="insufficient_scope"');
      }
      expect(writes).toHaveLength(9);
      expect(upstream.requests.length).toBe(before);
    } finally {
      await server.close();
      await upstream.close();
      await keycloak.close();
    }
  });
});

describe("stateful sessions in resource mode", () => {
  it("a session is its user's alone: its id with another user's token finds no session, and nothing reaches the upstream", async () => {
    const authorizationServer = await startAuthorizationServer();
    const { upstream, server } = await memosResourceServer(authorizationServer.issuer, { MCP_SESSIONS: "stateful" });
    try {
      const audience = new URL("/mcp", server.url).href;
      const tokenFor = (sub: string) => signedToken(authorizationServer, { aud: audience, sub });
      const [alice, bob] = [await tokenFor("alice"), await tokenFor("bob")];
      const opened = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${alice}` },
        body: JSON.stringify(INITIALIZE),
      });
      expect(opened.status).toBe(200);
      const session = opened.headers.get("mcp-session-id") ?? "";
      expect(session).not.toBe("");
      await opened.text();
      const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "memo_list_memos", arguments: {} } };
      const headers = (token: string) => ({
        authorization: `Bearer ${token}`,
        "mcp-session-id": session,
        "mcp-protocol-version": "2025-11-25",
      });
      const stolen = await post(server.url, call, headers(bob));
      expect(stolen.status).toBe(404);
      expect(stolen.text).toContain("Session not found");
      expect(upstream.requests).toHaveLength(0);
      const own = await post(server.url, call, headers(alice));
      expect(own.status, own.text).toBe(200);
      expect(upstream.requests).toHaveLength(1);
    } finally {
      await server.close();
      await upstream.close();
      await authorizationServer.close();
    }
  });
});
