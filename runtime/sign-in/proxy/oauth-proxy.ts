import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../base/logger.js";
import { sendJson } from "../../http/json-response.js";
import { readRequestBody } from "../../http/request-body.js";
import type { SignInState } from "../state/sign-in-state.js";
import { InvalidToken, type VerifiedToken } from "../token-verifier.js";
import { AuthorizationFlow, sameResource } from "./authorization-flow.js";
import { ClientDirectory, ClientRefused, clientLabel } from "./client-directory.js";
import type { ClientMetadataPolicy } from "./client-metadata-document.js";
import { sendErrorPage } from "./consent-page.js";
import { type ProxyPlace, proxyPlace } from "./proxy-place.js";
import { type SealingKeys, SealRefused } from "./sealed.js";
import { TokenEndpoint } from "./token-endpoint.js";
import { type ProviderSettings, UpstreamProvider } from "./upstream-provider.js";

/** Proxy mode's settings: where this server stands, the provider behind it, the sealing keys, the metadata-document policy. */
export interface ProxySettings {
  resource: URL;
  serverName: string;
  provider: ProviderSettings;
  keys: SealingKeys;
  clientMetadata: ClientMetadataPolicy;
  /** What must hold across replicas: codes used, refresh generations, revocations. @default this replica's memory */
  state?: SignInState;
}

/** The proxy's endpoints, by path. */
const ENDPOINTS = {
  metadata: "/.well-known/oauth-authorization-server",
  authorize: "/authorize",
  consent: "/consent",
  callback: "/oauth/callback",
  token: "/token",
  revoke: "/revoke",
  register: "/register",
} as const;

/**
 * Proxy mode: this server is the authorization server its MCP clients see (RFC 8414 metadata, Dynamic Client
 * Registration, Client ID Metadata Documents, PKCE), in front of the API's own OAuth provider, where the user signs in
 * through the operator's one registered app. Its tokens are sealed and carry the user's provider token, which every
 * call of that user sends upstream.
 */
export class OAuthProxy {
  readonly place: ProxyPlace;
  private readonly clients: ClientDirectory;
  private readonly flow: AuthorizationFlow;
  private readonly tokens: TokenEndpoint;
  /**
   * @param scopesSupported the scopes the MCP server publishes (its resource metadata's), which clients may ask for.
   */
  constructor(
    private readonly settings: ProxySettings,
    private readonly log: Logger,
    private readonly scopesSupported: () => readonly string[],
    fetchFn?: typeof fetch,
  ) {
    this.place = proxyPlace(settings.resource, settings.serverName);
    const provider = new UpstreamProvider(settings.provider, fetchFn);
    this.clients = new ClientDirectory(settings.keys, settings.clientMetadata);
    this.flow = new AuthorizationFlow(this.place, this.clients, settings.keys, provider, log);
    this.tokens = new TokenEndpoint(this.place, settings.keys, provider, log, settings.state);
  }

  /** Where users sign in: the provider's authorization endpoint. */
  get provider(): URL {
    return this.settings.provider.authorizationUrl;
  }

  /** Answers a request for one of the proxy's endpoints (true), or leaves it (false). */
  answers(req: IncomingMessage, res: ServerResponse): boolean {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const method = req.method ?? "GET";
    const route = this.route(path, method, req, res);
    if (!route) return false;
    route.catch((error: unknown) => {
      this.log.error("sign-in endpoint failed", { path, error: error instanceof Error ? error.message : String(error) });
      if (!res.headersSent) sendErrorPage(res, 500, "The sign-in could not go on; try again.");
      else res.end();
    });
    return true;
  }

  private route(path: string, method: string, req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
    const cors = path === ENDPOINTS.metadata || path === ENDPOINTS.token || path === ENDPOINTS.revoke || path === ENDPOINTS.register;
    if (cors) res.setHeader("access-control-allow-origin", "*");
    if (cors && method === "OPTIONS") return Promise.resolve(preflight(res));
    if (path === ENDPOINTS.metadata && (method === "GET" || method === "HEAD")) return Promise.resolve(sendJson(res, 200, this.metadata()));
    if (path === ENDPOINTS.authorize && method === "GET") return this.flow.authorize(req, res);
    if (path === ENDPOINTS.consent && method === "POST") return this.flow.consent(req, res);
    if (path === ENDPOINTS.callback && method === "GET") return this.flow.callback(req, res);
    if (path === ENDPOINTS.token && method === "POST") return this.tokens.handle(req, res);
    if (path === ENDPOINTS.revoke && method === "POST") return this.tokens.revoke(req, res);
    if (path === ENDPOINTS.register && method === "POST") return this.register(req, res);
    return undefined;
  }

  /** RFC 8414 metadata, with what MCP clients look for: PKCE S256, registration, metadata documents, `iss` in responses. */
  metadata(): Record<string, unknown> {
    const at = (path: string) => new URL(path, this.place.issuer).href;
    return {
      issuer: this.place.issuerName,
      authorization_endpoint: at(ENDPOINTS.authorize),
      token_endpoint: at(ENDPOINTS.token),
      revocation_endpoint: at(ENDPOINTS.revoke),
      revocation_endpoint_auth_methods_supported: ["none"],
      registration_endpoint: at(ENDPOINTS.register),
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["none"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: this.scopesSupported(),
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    };
  }

  /** POST /register (RFC 7591): a public client, its id its own sealed record. */
  private async register(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader("cache-control", "no-store");
    const text = await readRequestBody(req, 16_384);
    let body: unknown;
    try {
      body = JSON.parse(text ?? "");
    } catch {
      return sendJson(res, 400, { error: "invalid_client_metadata", error_description: "the registration must be JSON under 16 KB" });
    }
    try {
      sendJson(res, 201, await this.clients.register(body));
    } catch (error) {
      if (error instanceof ClientRefused) return sendJson(res, 400, { error: error.error, error_description: error.message });
      throw error;
    }
  }

  /** The caller of an access token this server sealed (for this resource, unrevoked), with the provider token it carries. */
  async verify(token: string): Promise<VerifiedToken> {
    let claims: Record<string, unknown>;
    try {
      claims = await this.settings.keys.open("access", token);
    } catch (error) {
      throw new InvalidToken(
        error instanceof SealRefused ? error.message.replace("the access", "the access token") : "the token cannot be read",
      );
    }
    if (claims.iss !== this.place.issuerName || typeof claims.aud !== "string" || !sameResource(claims.aud, this.place.resource))
      throw new InvalidToken("the token is meant for another resource");
    if (typeof claims.sub !== "string" || typeof claims.upstream !== "string") throw new InvalidToken("the token cannot be read");
    const issuedAt = typeof claims.iat === "number" ? claims.iat : 0;
    const who = { subject: claims.sub, ...(typeof claims.client_id === "string" ? { client: clientLabel(claims.client_id) } : {}) };
    if (typeof claims.family === "string" && (await this.tokens.state.isRevoked(claims.family, claims.sub, issuedAt)))
      throw new InvalidToken("the sign-in was revoked", who);
    return {
      ...who,
      scopes: new Set(typeof claims.scope === "string" ? claims.scope.split(" ").filter(Boolean) : []),
      expiresAt: typeof claims.exp === "number" ? claims.exp * 1000 : Date.now(),
      upstreamAuthorization: `Bearer ${claims.upstream}`,
    };
  }
}

function preflight(res: ServerResponse): void {
  res.writeHead(204, {
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "content-type, authorization, mcp-protocol-version",
    "access-control-max-age": "600",
  });
  res.end();
}
