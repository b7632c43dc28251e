import { randomBytes } from "node:crypto";
import { tools as memosTools, serverIdentity } from "../../generated/index.js";
import type { Logger } from "../../runtime/base/logger.js";
import { silentLogger } from "../../runtime/base/logger.js";
import type { ToolDefinition } from "../../runtime/base/tool.js";
import type { CodeSettings } from "../../runtime/code/code-settings.js";
import type { RunningServer } from "../../runtime/http/http-server.js";
import { readServerEnvironment } from "../../runtime/serve/env.js";
import { startServer } from "../../runtime/serve/serve.js";
import { freePort } from "../../scripts/free-port.js";
import { startAuthorizationServer } from "./authorization-server.js";
import { startHttpsServer } from "./https-server.js";
import { sendJson, startUpstream } from "./upstream.js";

/** The operator's app at the provider (registered by hand: the provider has no dynamic registration). */
export const OPERATOR_APP = { id: "memos-app", secret: "memos-app-secret" };

/** Memos' tools, creating a memo needing `memos:write` (so a read-only grant does not list it). */
const TOOLS: ToolDefinition[] = memosTools.map((tool) => (tool.name === "memo_create_memo" ? { ...tool, scopes: ["memos:write"] } : tool));

/** The user a bearer JWT names (`sub`), as the fake API reads it. */
export function tokenSubject(authorization: string | undefined): string | undefined {
  const payload = (authorization ?? "").replace(/^Bearer /, "").split(".")[1];
  if (!payload) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString()).sub;
  } catch {
    return undefined;
  }
}

/** A fresh proxy key, as `openssl rand -base64 32` writes it. */
export function newKey(): string {
  return randomBytes(32).toString("base64");
}

/**
 * The OAuth proxy end to end on 127.0.0.1: the API's provider (oidc-provider, dynamic registration off, the operator's
 * app registered for the proxy's callback), the API itself (it answers each user with that user's own memo, by the
 * provider token's `sub`), an https host of Client ID Metadata Documents, and the committed Memos server in proxy mode.
 */
export async function startProxyStack(
  options: { log?: Logger; clientMetadataTimeoutMs?: number; code?: CodeSettings; variables?: Record<string, string> } = {},
) {
  let user = "alice";
  let ttl = 3600;
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const api = await startUpstream((request, res) => {
    const who = tokenSubject(request.headers.authorization);
    if (!who) return sendJson(res, 401, { message: "sign in" });
    sendJson(res, 200, { memos: [{ name: `memos/${who}`, content: `${who}'s own memo` }], nextPageToken: "" });
  });
  const provider = await startAuthorizationServer({
    user: () => user,
    registration: false,
    defaultResource: api.url.href,
    accessTokenTtl: () => ttl,
    refreshTokens: true,
    clients: [
      {
        client_id: OPERATOR_APP.id,
        client_secret: OPERATOR_APP.secret,
        redirect_uris: [`${publicUrl}/oauth/callback`],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: "ES256",
      },
    ],
  });
  const documents = new Map<string, { body: string; delayMs?: number }>();
  const metadataHost = await startHttpsServer((req, res) => {
    const found = documents.get(req.url ?? "");
    if (!found) {
      res.statusCode = 404;
      res.end();
      return;
    }
    setTimeout(() => {
      if (res.destroyed) return;
      res.setHeader("content-type", "application/json");
      res.end(found.body);
    }, found.delayMs ?? 0).unref();
  });
  const key = newKey();
  const start = (variables: Record<string, string> = {}, at = port, log = options.log ?? silentLogger) => {
    const environment = readServerEnvironment({
      HOST: "127.0.0.1",
      PORT: String(at),
      PUBLIC_URL: publicUrl,
      API_BASE_URL: api.url.href,
      AUTH_MODE: "proxy",
      AUTH_KEY: key,
      AUTH_CLIENT_ID: OPERATOR_APP.id,
      AUTH_CLIENT_SECRET: OPERATOR_APP.secret,
      AUTH_PROVIDER_AUTHORIZATION_URL: new URL("/auth", provider.issuer).href,
      AUTH_PROVIDER_TOKEN_URL: new URL("/token", provider.issuer).href,
      AUTH_PROVIDER_SCOPES: "openid",
      AUTH_CLIENT_METADATA_HOSTS: `127.0.0.1:${metadataHost.port}`,
      ...options.variables,
      ...variables,
    });
    return startServer({
      identity: serverIdentity,
      tools: TOOLS,
      environment,
      log,
      trustedCa: metadataHost.cert,
      ...(options.code ? { code: options.code } : {}),
      clientMetadataTimeoutMs: options.clientMetadataTimeoutMs ?? 1_000,
    });
  };
  let server: RunningServer = await start();
  return {
    port,
    publicUrl,
    mcp: new URL(`${publicUrl}/mcp`),
    key,
    api,
    provider,
    metadataHost,
    documents,
    get server() {
      return server;
    },
    /** Who signs in at the provider next. */
    signInAs(name: string) {
      user = name;
    },
    /** The lifetime of the provider's next access tokens, in seconds. */
    providerTokenSeconds(seconds: number) {
      ttl = seconds;
    },
    /** The server stopped and started again on its port with these variables (a new key, another secret). */
    async restart(variables: Record<string, string>) {
      await server.close();
      server = await start(variables);
      // Clients' kept-alive connections to the stopped server close as they learn of it, not at once.
      await new Promise((resolve) => setTimeout(resolve, 100));
    },
    /**
     * Another replica beside the first, behind the same public URL (as a balancer would place it) on a port of its own,
     * with these variables (the same key unless given another); the caller closes it.
     */
    async replica(variables: Record<string, string> = {}, log?: Logger) {
      const replica = await start(variables, await freePort(), log);
      return { server: replica, mcp: replica.url, close: () => replica.close() };
    },
    async close() {
      await server.close();
      await Promise.all([api.close(), provider.close(), metadataHost.close()]);
    },
  };
}
