import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools as memosTools, serverIdentity } from "../../generated/index.js";
import { silentLogger } from "../../runtime/base/logger.js";
import { readServerEnvironment } from "../../runtime/serve/env.js";
import { startServer } from "../../runtime/serve/serve.js";
import { SealingKeys } from "../../runtime/sign-in/proxy/sealed.js";
import { freePort } from "../../scripts/free-port.js";
import { tools as kitchenTools } from "../fixtures/kitchen-sink/generated/index.js";
import {
  auth as kitchenAuth,
  serverIdentity as kitchenIdentity,
  upstream as kitchenUpstream,
} from "../fixtures/kitchen-sink/generated/server-settings.js";
import { authorize, type CookieJar } from "../helpers/authorization-server.js";
import { signedInClient, TestOAuthProvider } from "../helpers/oauth-client.js";
import { pkce, proxyFlow, REDIRECT } from "../helpers/proxy-flow.js";
import { newKey, OPERATOR_APP, startProxyStack, tokenSubject } from "../helpers/proxy-stack.js";

type Stack = Awaited<ReturnType<typeof startProxyStack>>;
let stack: Stack;

beforeAll(async () => {
  stack = await startProxyStack();
});
afterAll(async () => {
  await stack?.close();
});

/** A raw POST to `/mcp` with a bearer token, in either era. */
async function mcpPost(token: string, body: unknown, headers: Record<string, string> = {}, at: URL = stack.mcp) {
  const response = await fetch(at, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate") ?? "", text: await response.text() };
}

/** A stateless 2026-07-28 tools/call. */
function modernCall(token: string, name: string, args: Record<string, unknown> = {}, at: URL = stack.mcp) {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  return mcpPost(
    token,
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name, arguments: args, _meta: meta } },
    { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
    at,
  );
}

/** The proxy's flow by hand, against this file's stack. */
const flow = () => proxyFlow(stack);
const register = (redirectUris?: string[]) => flow().register(redirectUris);
const authorizationUrl = (clientId: string, params?: Record<string, string | undefined>, at?: URL) =>
  flow().authorizationUrl(clientId, params, at);
const token = (fields: Record<string, string>, at?: URL) => flow().token(fields, at);
const signIn = (user: string, scope?: string) => flow().signIn(user, scope);

describe("proxy mode: the server is the clients' authorization server, in front of a provider without dynamic registration", () => {
  it("publishes RFC 8414 metadata (PKCE S256, registration, metadata documents, iss) and names itself in its resource metadata", async () => {
    const metadata = (await (await fetch(new URL("/.well-known/oauth-authorization-server", stack.publicUrl))).json()) as Record<
      string,
      unknown
    >;
    expect(metadata).toMatchObject({
      issuer: stack.publicUrl,
      authorization_endpoint: `${stack.publicUrl}/authorize`,
      token_endpoint: `${stack.publicUrl}/token`,
      registration_endpoint: `${stack.publicUrl}/register`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["memos:write"]));
    const resource = await (await fetch(new URL("/.well-known/oauth-protected-resource/mcp", stack.publicUrl))).json();
    expect(resource).toMatchObject({ resource: stack.mcp.href, authorization_servers: [stack.publicUrl] });
    // The provider itself registers no one.
    const refused = await fetch(new URL("/reg", stack.provider.issuer), {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    expect(refused.status).not.toBe(201);
  });

  it("the SDK client signs in from the URL alone by dynamic registration; the API receives the user's own provider token, in both eras", async () => {
    stack.signInAs("alice");
    const provider = new TestOAuthProvider();
    const { client } = await signedInClient(stack.mcp, provider);
    try {
      const ours = provider.tokens()?.access_token ?? "";
      // The client holds this server's sealed token (JWE), not the provider's.
      expect(ours.split(".")).toHaveLength(5);
      const before = stack.api.requests.length;
      const result = await client.callTool({ name: "memo_list_memos", arguments: {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toContain("alice's own memo");
      const sent = stack.api.requests.slice(before).map((request) => request.headers.authorization ?? "");
      expect(sent).toHaveLength(1);
      expect(tokenSubject(sent[0])).toBe("alice");
      expect(sent[0]).not.toContain(ours);
      const modern = await modernCall(ours, "memo_list_memos");
      expect(modern.status, modern.text).toBe(200);
      expect(modern.text).toContain("alice's own memo");
      expect(tokenSubject(stack.api.requests.at(-1)?.headers.authorization)).toBe("alice");
    } finally {
      await client.close();
    }
  });

  it("signs in with a Client ID Metadata Document; two users' calls carry their own tokens and see each other's nothing", async () => {
    const clientId = stack.metadataHost.url("/clients/sdk.json");
    stack.documents.set("/clients/sdk.json", {
      body: JSON.stringify({
        client_id: clientId,
        client_name: "metadata-document client",
        redirect_uris: [REDIRECT],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none",
      }),
    });
    stack.signInAs("bob");
    const bobsClient = new TestOAuthProvider(undefined, { clientMetadataUrl: clientId });
    const bob = await signedInClient(stack.mcp, bobsClient);
    stack.signInAs("alice");
    const alice = await signedInClient(stack.mcp, new TestOAuthProvider());
    try {
      expect(bobsClient.clientInformation()?.client_id).toBe(clientId);
      const bobs = JSON.stringify((await bob.client.callTool({ name: "memo_list_memos", arguments: {} })).structuredContent);
      expect(tokenSubject(stack.api.requests.at(-1)?.headers.authorization)).toBe("bob");
      const alices = JSON.stringify((await alice.client.callTool({ name: "memo_list_memos", arguments: {} })).structuredContent);
      expect(tokenSubject(stack.api.requests.at(-1)?.headers.authorization)).toBe("alice");
      expect(bobs).toContain("bob's own memo");
      expect(bobs).not.toContain("alice");
      expect(alices).toContain("alice's own memo");
      expect(alices).not.toContain("bob");
    } finally {
      await Promise.all([bob.client.close(), alice.client.close()]);
    }
  });

  it("lists the tools the provider's grant allows: a read-only sign-in does not see creating a memo, and is refused it with 403", async () => {
    const { tokens } = await signIn("carol", "memos:read");
    expect(tokens.scope.split(" ")).toContain("memos:read");
    expect(tokens.scope.split(" ")).not.toContain("memos:write");
    const listed = await mcpPost(
      tokens.access_token,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
      },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
    );
    expect(listed.status, listed.text).toBe(200);
    expect(listed.text).toContain("memo_list_memos");
    expect(listed.text).not.toContain('"name":"memo_create_memo"');
    const refused = await modernCall(tokens.access_token, "memo_create_memo", { memo: { content: "x" } });
    expect(refused.status).toBe(403);
    expect(refused.challenge).toContain('error="insufficient_scope"');
  });
});

describe("proxy mode refuses, each with its own reason", () => {
  it("an unregistered or prefix-matched redirect URI: a page, never a redirect", async () => {
    const clientId = await register();
    for (const redirect of [
      "http://127.0.0.1:9/other",
      `${REDIRECT}/deeper`,
      `${REDIRECT}x`,
      `${REDIRECT}?extra=1`,
      "http://127.0.0.1:10/callback",
    ]) {
      const response = await fetch(authorizationUrl(clientId, { redirect_uri: redirect }), { redirect: "manual" });
      expect(response.status, redirect).toBe(400);
      expect(response.headers.get("location"), redirect).toBeNull();
      expect(await response.text()).toContain("not one this client registered");
    }
    // Registration itself refuses what could never be matched safely.
    for (const uri of ["javascript:alert(1)", "http://example.com/callback", "https://app.example/cb#frag"]) {
      const response = await fetch(new URL("/register", stack.publicUrl), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [uri] }),
      });
      expect(response.status, uri).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe("invalid_redirect_uri");
    }
  });

  it.each([
    ["a plain PKCE challenge", { code_challenge_method: "plain" }],
    ["a missing PKCE challenge", { code_challenge: undefined }],
    ["a PKCE challenge without its method", { code_challenge_method: undefined }],
  ])("%s, sent back to the client's loopback redirect URI as invalid_request", async (_, params: Record<string, string | undefined>) => {
    const clientId = await register();
    const response = await fetch(authorizationUrl(clientId, params), { redirect: "manual" });
    expect(response.status).toBe(302);
    const back = new URL(response.headers.get("location") ?? "");
    expect(back.href.startsWith(REDIRECT)).toBe(true);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("state")).toBe("the-clients-state");
    expect(back.searchParams.get("iss")).toBe(stack.publicUrl);
  });

  it("shows errors on a page for a client whose redirect URI is a site: anyone may register one, and this server is no redirector", async () => {
    const site = "https://phishing.example/login";
    const clientId = await register([site]);
    for (const params of [{ response_type: "token" }, { code_challenge_method: "plain" }, { resource: "https://elsewhere.example/mcp" }]) {
      const response = await fetch(authorizationUrl(clientId, { redirect_uri: site, ...params }), { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("Return to your application and start again");
    }
  });

  it("a reused authorization code, and a code_verifier that does not match", async () => {
    const { clientId, code, verifier } = await signIn("alice");
    const again = await token({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("invalid_grant");
    stack.signInAs("alice");
    const right = pkce();
    const fresh = await authorize(authorizationUrl(clientId, { code_challenge: right.challenge }), REDIRECT);
    const redeem = (codeVerifier: string) =>
      token({
        grant_type: "authorization_code",
        code: fresh.get("code") ?? "",
        code_verifier: codeVerifier,
        client_id: clientId,
        redirect_uri: REDIRECT,
      });
    const wrong = await redeem(pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toContain("PKCE");
    // The code is spent: whoever tried a wrong verifier had one try, and the right one comes too late.
    expect((await redeem(right.verifier)).body.error).toBe("invalid_grant");
  });

  it("a mismatched state: one altered, and one brought back by another browser", async () => {
    const clientId = await register();
    const cookies: CookieJar = new Map();
    const page = await fetch(authorizationUrl(clientId), { redirect: "manual" });
    for (const line of page.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    const request = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
    const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const consent = await fetch(new URL("/consent", stack.publicUrl), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ request, decision: "approve" }),
    });
    expect(consent.status).toBe(303);
    const toProvider = new URL(consent.headers.get("location") ?? "");
    expect(toProvider.origin).toBe(stack.provider.issuer.origin);
    expect(toProvider.searchParams.get("client_id")).toBe(OPERATOR_APP.id);
    const state = toProvider.searchParams.get("state") ?? "";
    const callback = (stateValue: string, withCookie: boolean) =>
      fetch(new URL(`/oauth/callback?code=provider-code&state=${encodeURIComponent(stateValue)}`, stack.publicUrl), {
        redirect: "manual",
        headers: withCookie ? { cookie } : {},
      });
    const altered = await callback(`${state.slice(0, -4)}AAAA`, true);
    expect(altered.status).toBe(400);
    expect(await altered.text()).toContain("state does not match");
    const elsewhere = await callback(state, false);
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain("does not match this browser");
    // The consent form itself only counts from the browser it was shown in.
    const forged = await fetch(new URL("/consent", stack.publicUrl), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ request, decision: "approve" }),
    });
    expect(forged.status).toBe(400);
  });

  it.each([
    ["on a private address", "/private.json", "localhost", {}, "private, loopback or link-local"],
    ["too large", "/large.json", "127.0.0.1", { padding: "x".repeat(6_000) }, "larger than 5120 bytes"],
    ["too slow", "/slow.json", "127.0.0.1", {}, "did not arrive within 1000 ms"],
  ])("a Client ID Metadata Document %s", async (_, path, host, extra, reason) => {
    const clientId = `https://${host}:${stack.metadataHost.port}${path}`;
    const document = { client_id: clientId, client_name: "x", redirect_uris: [REDIRECT], ...extra };
    stack.documents.set(path, { body: JSON.stringify(document), ...(path === "/slow.json" ? { delayMs: 3_000 } : {}) });
    const response = await fetch(authorizationUrl(clientId), { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.text()).toContain(reason);
  });

  it("a tampered sealed token, and a sealed value of another kind", async () => {
    const { tokens } = await signIn("alice");
    expect((await modernCall(tokens.access_token, "memo_list_memos")).status).toBe(200);
    const parts = tokens.access_token.split(".");
    const cipher = parts[3] ?? "";
    parts[3] = `${cipher.slice(0, 10)}${cipher[10] === "A" ? "B" : "A"}${cipher.slice(11)}`;
    const tampered = await modernCall(parts.join("."), "memo_list_memos");
    expect(tampered.status).toBe(401);
    expect(tampered.challenge).toContain('error="invalid_token"');
    // A client id or a refresh token is not an access token, though sealed with the same key.
    const clientId = await register();
    expect((await modernCall(clientId, "memo_list_memos")).status).toBe(401);
    expect((await modernCall(tokens.refresh_token, "memo_list_memos")).status).toBe(401);
  });

  it("a foreign sealed token: well formed, sealed with a key this server does not hold", async () => {
    const foreignKeys = new SealingKeys(stack.mcp, Uint8Array.from(Buffer.from(newKey(), "base64")));
    const foreign = await foreignKeys.seal(
      "access",
      { iss: stack.publicUrl, aud: stack.mcp.href, sub: "mallory", scope: "memos:read memos:write", upstream: "stolen" },
      600,
    );
    const before = stack.api.requests.length;
    const refused = await modernCall(foreign, "memo_list_memos");
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain("does not hold");
    expect(stack.api.requests.length).toBe(before);
  });

  it("consent not given: the client hears access_denied and no code, and the provider is never asked", async () => {
    const clientId = await register();
    const before = stack.api.requests.length;
    const back = await authorize(authorizationUrl(clientId), REDIRECT, { consent: "deny" });
    expect(back.get("error")).toBe("access_denied");
    expect(back.get("code")).toBeNull();
    expect(back.get("state")).toBe("the-clients-state");
    expect(stack.api.requests.length).toBe(before);
  });
});

describe("tokens that outlive a replica and a provider token", () => {
  it("rotates refresh tokens, and refreshes the provider's expired token with the provider's refresh token", async () => {
    stack.providerTokenSeconds(2);
    try {
      const { clientId, tokens } = await signIn("dave");
      expect(tokens.expires_in).toBeLessThanOrEqual(2);
      expect((await modernCall(tokens.access_token, "memo_list_memos")).status).toBe(200);
      const first = stack.api.requests.at(-1)?.headers.authorization;
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      // Expired with the provider's token: the client must refresh.
      expect((await modernCall(tokens.access_token, "memo_list_memos")).status).toBe(401);
      const refreshed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
      expect((await modernCall(refreshed.body.access_token, "memo_list_memos")).status).toBe(200);
      const second = stack.api.requests.at(-1)?.headers.authorization;
      expect(tokenSubject(second)).toBe("dave");
      expect(second).not.toBe(first);
      // The used refresh token is refused, and its reuse revokes the sign-in.
      const reused = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
      expect(reused.body.error).toBe("invalid_grant");
      const revoked = await token({ grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token, client_id: clientId });
      expect(revoked.body.error).toBe("invalid_grant");
      expect((await modernCall(refreshed.body.access_token, "memo_list_memos")).status).toBe(401);
    } finally {
      stack.providerTokenSeconds(3600);
    }
  });

  it("two replicas with one key: a client, a token and a refresh token from one work on the other; another key refuses them; a rotation keeps them", async () => {
    const { clientId, tokens } = await signIn("erin");
    const second = await stack.replica();
    const otherKey = newKey();
    const foreign = await stack.replica({ AUTH_KEY: otherKey });
    const rotated = await stack.replica({ AUTH_KEY: otherKey, AUTH_PREVIOUS_KEY: stack.key });
    try {
      // The token issued through the first replica calls through the second.
      expect((await modernCall(tokens.access_token, "memo_list_memos", {}, second.mcp)).status).toBe(200);
      expect(tokenSubject(stack.api.requests.at(-1)?.headers.authorization)).toBe("erin");
      // Its refresh token, and the client registered there, work on the second too.
      const refreshed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId }, second.mcp);
      expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
      const page = await fetch(authorizationUrl(clientId, {}, second.mcp));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("raw test client");
      // A replica with another key takes none of it; one rotated to a new key still takes the old key's tokens.
      expect((await modernCall(refreshed.body.access_token, "memo_list_memos", {}, foreign.mcp)).status).toBe(401);
      expect((await fetch(authorizationUrl(clientId, {}, foreign.mcp))).status).toBe(400);
      expect((await modernCall(refreshed.body.access_token, "memo_list_memos", {}, rotated.mcp)).status).toBe(200);
      const renewed = await token(
        { grant_type: "refresh_token", refresh_token: refreshed.body.refresh_token, client_id: clientId },
        rotated.mcp,
      );
      expect(renewed.status).toBe(200);
      // What the rotated replica seals now, under the new key, the first replica (old key only) refuses.
      expect((await modernCall(renewed.body.access_token, "memo_list_memos")).status).toBe(401);
    } finally {
      await Promise.all([second.close(), foreign.close(), rotated.close()]);
    }
  });
});

describe("a key rotation that retires the old key, and an app secret the provider refuses, as users meet them", () => {
  it("the SDK client, refused its old client id with invalid_client, registers again by itself and the user signs in", async () => {
    stack.signInAs("fred");
    const provider = new TestOAuthProvider();
    const first = await signedInClient(stack.mcp, provider);
    try {
      expect((await first.client.callTool({ name: "memo_list_memos", arguments: {} })).isError).toBeFalsy();
    } finally {
      await first.client.close();
    }
    expect(provider.registrations).toBe(1);
    // The operator rotates and drops the old key at once (a leaked key): every client id and token it sealed is void.
    await stack.restart({ AUTH_KEY: newKey() });
    try {
      const again = await signedInClient(stack.mcp, provider);
      try {
        expect((await again.client.callTool({ name: "memo_list_memos", arguments: {} })).isError).toBeFalsy();
      } finally {
        await again.client.close();
      }
      expect(provider.registrations).toBe(2);
      expect(provider.signIns).toBe(2);
      expect(tokenSubject(stack.api.requests.at(-1)?.headers.authorization)).toBe("fred");
    } finally {
      await stack.restart({});
    }
  });

  it("logs the provider's refusal of the app's credentials with its cause, and tells the client the operator must fix it", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = {
      info: (message: string, fields?: Record<string, unknown>) => lines.push({ message, ...fields }),
      warn: (message: string, fields?: Record<string, unknown>) => lines.push({ message, ...fields }),
      error: (message: string, fields?: Record<string, unknown>) => lines.push({ message, ...fields }),
    };
    const misconfigured = await stack.replica({ AUTH_CLIENT_SECRET: "not-the-apps-secret" }, log);
    try {
      stack.signInAs("gus");
      const clientId = await register();
      const { verifier, challenge } = pkce();
      const back = await authorize(authorizationUrl(clientId, { code_challenge: challenge }), REDIRECT);
      const answer = await token(
        {
          grant_type: "authorization_code",
          code: back.get("code") ?? "",
          code_verifier: verifier,
          client_id: clientId,
          redirect_uri: REDIRECT,
        },
        misconfigured.mcp,
      );
      expect(answer.status).toBe(503);
      expect(answer.body.error_description).toContain("the server's operator must correct its credentials");
      expect(lines).toContainEqual(
        expect.objectContaining({
          message: expect.stringContaining("the provider refused this server's app credentials; check AUTH_CLIENT_ID, AUTH_CLIENT_SECRET"),
          cause: expect.stringContaining("invalid_client"),
        }),
      );
      expect(lines).toContainEqual(
        expect.objectContaining({ message: "audit", event: "refused", status: 503, reason: expect.stringContaining("own app") }),
      );
    } finally {
      await misconfigured.close();
    }
  });
});

describe("another server given the same key by mistake", () => {
  it("takes none of this server's clients, tokens or refresh tokens: each key is bound to the resource it serves", async () => {
    const { clientId, tokens } = await signIn("gina");
    const elsewhere = `http://127.0.0.1:${await freePort()}`;
    const other = await stack.replica({ PUBLIC_URL: elsewhere });
    try {
      const otherMcp = new URL("/mcp", elsewhere);
      expect(other.mcp.href).not.toBe(stack.mcp.href);
      const before = stack.api.requests.length;
      expect((await modernCall(tokens.access_token, "memo_list_memos", {}, other.mcp)).status).toBe(401);
      // A refresh token carries no audience: only the binding refuses it (it once bought a token for the other server).
      // Its client id opens there no more than its tokens: invalid_client, on which a client would register there anew.
      const refreshed = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId }, other.mcp);
      expect(refreshed.status).toBe(400);
      expect(refreshed.body.error).toBe("invalid_client");
      expect(refreshed.body.access_token).toBeUndefined();
      expect((await fetch(authorizationUrl(clientId, { resource: otherMcp.href }, other.mcp))).status).toBe(400);
      expect(stack.api.requests.length).toBe(before);
      // This server still takes them all.
      const here = await token({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
      expect(here.status, JSON.stringify(here.body)).toBe(200);
      expect((await modernCall(here.body.access_token, "memo_list_memos")).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe("code mode in proxy mode", () => {
  it("a program's calls carry the signed-in user's own provider token", async () => {
    const coded = await startProxyStack({ code: {} });
    try {
      coded.signInAs("frank");
      const provider = new TestOAuthProvider();
      const { client } = await signedInClient(coded.mcp, provider);
      try {
        const before = coded.api.requests.length;
        const result = await client.callTool({ name: "run_code", arguments: { code: "return await api.memo_list_memos({});" } });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        expect(JSON.stringify(result.structuredContent)).toContain("frank's own memo");
        const sent = coded.api.requests.slice(before).map((request) => tokenSubject(request.headers.authorization));
        expect(sent).toEqual(["frank"]);
      } finally {
        await client.close();
      }
    } finally {
      await coded.close();
    }
  });
});

describe("proxy mode's start-up", () => {
  const base = (port: number) => ({
    HOST: "127.0.0.1",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    API_BASE_URL: "http://127.0.0.1:9/",
    AUTH_MODE: "proxy",
  });

  it("takes the provider's endpoints from the document's oauth2 authorization-code flow, and sends the user there once they allow", async () => {
    const port = await freePort();
    const environment = readServerEnvironment({ ...base(port), AUTH_KEY: newKey(), AUTH_CLIENT_ID: "app", AUTH_CLIENT_SECRET: "secret" });
    const server = await startServer({ identity: kitchenIdentity, tools: kitchenTools, auth: kitchenAuth, environment, log: silentLogger });
    try {
      const publicUrl = `http://127.0.0.1:${port}`;
      const registered = await fetch(new URL("/register", publicUrl), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [REDIRECT] }),
      });
      const { client_id } = (await registered.json()) as { client_id: string };
      const url = new URL("/authorize", publicUrl);
      url.search = new URLSearchParams({
        response_type: "code",
        client_id,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: "S256",
        scope: "notes:write",
      }).toString();
      const page = await fetch(url);
      const cookie = (page.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
      const request = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
      const approved = await fetch(new URL("/consent", publicUrl), {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ request, decision: "approve" }),
      });
      const target = new URL(approved.headers.get("location") ?? "");
      expect(`${target.origin}${target.pathname}`).toBe("https://auth.example.com/authorize");
      expect(target.searchParams.get("client_id")).toBe("app");
      expect(target.searchParams.get("redirect_uri")).toBe(`${publicUrl}/oauth/callback`);
      expect(target.searchParams.get("code_challenge_method")).toBe("S256");
      expect(target.searchParams.get("scope")).toBe("notes:write");
    } finally {
      await server.close();
    }
  });

  it("names every variable it lacks, and refuses a key that is not 32 random bytes", async () => {
    const port = await freePort();
    const environment = readServerEnvironment(base(port));
    await expect(startServer({ identity: serverIdentity, tools: memosTools, environment, log: silentLogger })).rejects.toThrow(
      /AUTH_KEY is required[\s\S]*AUTH_CLIENT_ID and AUTH_CLIENT_SECRET are required[\s\S]*AUTH_PROVIDER_AUTHORIZATION_URL and AUTH_PROVIDER_TOKEN_URL are required/,
    );
    expect(() => readServerEnvironment({ ...base(port), AUTH_KEY: "too-short" })).toThrow(/AUTH_KEY: must be 32 random bytes/);
    // Users' tokens go only to an upstream the operator names, over a public URL that is https beyond loopback.
    const complete = { AUTH_KEY: newKey(), AUTH_CLIENT_ID: "app", AUTH_CLIENT_SECRET: "secret" };
    const { API_BASE_URL: _, ...noUpstream } = base(port);
    const start = (variables: Record<string, string>) =>
      startServer({
        identity: kitchenIdentity,
        tools: kitchenTools,
        auth: kitchenAuth,
        environment: readServerEnvironment(variables, kitchenUpstream),
        log: silentLogger,
      });
    await expect(start({ ...noUpstream, ...complete })).rejects.toThrow(/API_BASE_URL is required in proxy mode/);
    await expect(start({ ...base(port), ...complete, PUBLIC_URL: "http://mcp.example.com" })).rejects.toThrow(
      /PUBLIC_URL must be https in proxy mode/,
    );
    expect(() => readServerEnvironment({ ...base(port), AUTH_MODE: "proxi" })).toThrow(/must be passthrough, resource or proxy/);
  });
});
