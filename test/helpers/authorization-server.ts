import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from "jose";
import Provider, { type Configuration } from "oidc-provider";

/** The scopes the test authorization server grants for a resource. */
export const RESOURCE_SCOPES = "memos:read memos:write";

/**
 * A real authorization server on 127.0.0.1: oidc-provider (OpenID Certified) with dynamic client registration,
 * authorization code + PKCE, resource indicators (RFC 8707) and JWT access tokens signed with ES256, and its login and
 * consent answered by the test as the account `user` says: the scopes the client asks for are granted, or those of
 * them `allowed` lets that account have (the rest rejected, as an administrator's policy at a real server would).
 */
export async function startAuthorizationServer(
  options: {
    user?: () => string;
    clients?: Configuration["clients"];
    exchange?: boolean;
    scopes?: string;
    opaque?: boolean;
    /** Off: no dynamic registration (a provider such as GitHub's, which only knows the apps registered by hand). */
    registration?: boolean;
    /** The resource a token is for when the request names none (an API provider's own audience). */
    defaultResource?: string;
    /** Access tokens' lifetime in seconds, asked for each token. @default 3600 */
    accessTokenTtl?: () => number;
    /** A refresh token for every client allowed the grant (without offline_access and its consent prompt). */
    refreshTokens?: boolean;
    /** The resource scopes an account may be granted (space-separated); undefined: whatever it asks for. */
    allowed?: (account: string) => string | undefined;
  } = {},
) {
  const resourceScopes = options.scopes ?? RESOURCE_SCOPES;
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = "test-key";
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: "ES256", use: "sig" };
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const configuration: Configuration = {
    clients: options.clients ?? [],
    jwks: { keys: [privateJwk] },
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    scopes: ["openid", "offline_access", ...resourceScopes.split(" ")],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: options.registration ?? true },
      // A confidential client (a resource server) may ask about any token.
      introspection: { enabled: true, allowedPolicy: async (_ctx, client) => client.clientAuthMethod !== "none" },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        ...(options.defaultResource ? { defaultResource: () => options.defaultResource ?? "" } : {}),
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope: resourceScopes,
          audience: resourceIndicator,
          accessTokenTTL: options.accessTokenTtl?.() ?? 3600,
          ...(options.opaque
            ? { accessTokenFormat: "opaque" as const }
            : { accessTokenFormat: "jwt" as const, jwt: { sign: { alg: "ES256" as const } } }),
        }),
      },
    },
    pkce: { required: () => true },
    ...(options.refreshTokens ? { issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token") } : {}),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
  };
  const provider = new Provider(issuer.origin, configuration);
  if (options.exchange) allowTokenExchange(provider, publicJwk, issuer);
  /** How many tokens the token-exchange grant handed out. */
  const exchanges: { subject: string; audience: string }[] = [];
  exchangeLog.set(provider, exchanges);
  const callback = provider.callback();
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith("/interaction/")) void interact(provider, req, res, options.user?.() ?? "alice", options.allowed);
    else callback(req, res);
  });
  /** An access token as this server issues them (its key, its issuer), for `audience`, with these claims. */
  const accessToken = async (audience: string, claims: Record<string, unknown>) =>
    new SignJWT({ scope: resourceScopes, ...claims })
      .setProtectedHeader({ alg: "ES256", kid })
      .setIssuer(issuer.origin)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(await importJWK(privateJwk, "ES256"));
  return {
    issuer,
    provider,
    exchanges,
    accessToken,
    privateJwk,
    publicJwk,
    kid,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What the token-exchange grant of each server handed out. */
const exchangeLog = new WeakMap<Provider, { subject: string; audience: string }[]>();

export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

/**
 * OAuth 2.0 Token Exchange (RFC 8693) as the authorization server's own grant, for its confidential clients: an access
 * token it issued (checked against its key, issuer and expiry) is exchanged for one meant for `audience`.
 */
function allowTokenExchange(provider: Provider, publicJwk: JWK, issuer: URL): void {
  const parameters = new Set(["subject_token", "subject_token_type", "requested_token_type", "audience", "resource", "scope"]);
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx) => {
      const params = ctx.oidc.params as Record<string, string | undefined>;
      const key = await importJWK(publicJwk, "ES256");
      const { payload } = await jwtVerify(params.subject_token ?? "", key, { issuer: issuer.origin }).catch(() => ({ payload: undefined }));
      if (!payload?.sub || !params.audience) {
        ctx.status = 400;
        ctx.body = { error: "invalid_grant", error_description: "the subject token is not one of this server's" };
        return;
      }
      exchangeLog.get(provider)?.push({ subject: payload.sub, audience: params.audience });
      ctx.body = {
        access_token: `upstream-${payload.sub}-${randomUUID()}`,
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
        expires_in: 300,
      };
    },
    parameters,
  );
}

/** Answers a login prompt as `account`, and a consent prompt by granting what the client asked for (of it, what `allowed` lets the account have). */
async function interact(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  account: string,
  allowed?: (account: string) => string | undefined,
): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === "login") {
      await provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new provider.Grant({ accountId: String(details.session?.accountId), clientId: String(details.params.client_id) });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
    const permitted = allowed?.(String(details.session?.accountId));
    const may = (scope: string) => permitted === undefined || permitted.split(" ").includes(scope);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      const granted = scopes.filter(may);
      const refused = scopes.filter((scope) => !may(scope));
      if (granted.length > 0) grant.addResourceScope(indicator, granted.join(" "));
      if (refused.length > 0) grant.rejectResourceScope(indicator, refused.join(" "));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  } catch (error) {
    res.statusCode = 500;
    res.end(String(error));
  }
}

/** A browser's cookie jar for one sign-in: cookies by name (every test server is on 127.0.0.1, and cookies ignore ports). */
export type CookieJar = Map<string, string>;

/** What the browser does on the OAuth proxy's consent page: allow, deny, or stop there and hand it back. */
export type ConsentAnswer = "approve" | "deny";

/**
 * Follows an authorization URL as a browser would (cookies kept, redirects followed by hand, the proxy's consent page
 * answered with `consent`) until the authorization server sends the user back to the client; returns that redirect's
 * query (`code`, `state`, `iss`).
 */
export async function authorize(
  authorizationUrl: URL,
  redirectUri: string,
  options: { consent?: ConsentAnswer; cookies?: CookieJar } = {},
): Promise<URLSearchParams> {
  const cookies = options.cookies ?? new Map<string, string>();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 12; hop++) {
    const response = await fetch(url, {
      redirect: "manual",
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(form ? { "content-type": "application/x-www-form-urlencoded", origin: url.origin } : {}),
      },
      ...(form ? { method: "POST", body: form } : {}),
    });
    form = undefined;
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    const location = response.headers.get("location");
    if (!location) {
      const page = await response.text();
      const request = /name="request" value="([^"]+)"/.exec(page)?.[1];
      if (response.status !== 200 || !request)
        throw new Error(`the authorization server stopped at ${url.pathname} (${response.status}): ${page}`);
      form = new URLSearchParams({ request, decision: options.consent ?? "approve" });
      url = new URL("/consent", url);
      continue;
    }
    const next = new URL(location, url);
    if (next.href.startsWith(redirectUri)) return next.searchParams;
    url = next;
  }
  throw new Error("the sign-in did not come back to the client");
}
