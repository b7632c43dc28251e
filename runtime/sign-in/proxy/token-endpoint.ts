import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { audit } from "../../base/audit.js";
import type { Logger } from "../../base/logger.js";
import { isRecord } from "../../base/own-property.js";
import { sendJson } from "../../http/json-response.js";
import { readRequestBody } from "../../http/request-body.js";
import { MemorySignInState, type SignInState } from "../state/sign-in-state.js";
import { sameResource } from "./authorization-flow.js";
import { clientLabel } from "./client-directory.js";
import type { ProxyPlace } from "./proxy-place.js";
import type { SealingKeys } from "./sealed.js";
import { type ProviderGrant, ProviderRefused, type UpstreamProvider } from "./upstream-provider.js";

/** What a refresh token carries: who, for which client, and the provider's tokens for that user. */
interface RefreshClaims {
  sub: string;
  client_id: string;
  scope: string[];
  family: string;
  /** Its place in the family's rotation: the first refresh token of a sign-in is 0, each rotation one more. */
  generation: number;
  jti: string;
  /** When it was sealed (seconds): a user's sign-ins revoked after it end it. */
  iat: number;
  upstream: { access: string; refresh?: string; expires_at?: number };
}

/** An OAuth error of the token endpoint (RFC 6749 §5.2). */
class TokenError extends Error {
  constructor(
    readonly error:
      | "invalid_request"
      | "invalid_client"
      | "invalid_grant"
      | "unsupported_grant_type"
      | "invalid_target"
      | "temporarily_unavailable",
    message: string,
  ) {
    super(message);
  }
}

/** Lifetimes: an access token at most an hour (never past the provider's token); a refresh token 30 days. */
const ACCESS_SECONDS = 3600;
const REFRESH_SECONDS = 30 * 24 * 3600;
/** The provider's token is refreshed when it has less than this left. */
const REFRESH_MARGIN_SECONDS = 60;
/** How long a code's use is remembered: past its life of a minute. */
const CODE_MEMORY_MS = 120_000;

/**
 * POST /token: redeems this server's codes (PKCE S256, the same client and redirect URI, once) by redeeming the
 * provider's code inside, and rotates refresh tokens, refreshing the provider's token when it has expired; POST
 * /revoke (RFC 7009) ends a sign-in. Access and refresh tokens are sealed: they carry the user's provider tokens, which
 * never reach the client in the clear. What must hold wherever a request lands (codes used, each sign-in's refresh
 * generation, revocations) is the sign-in state's: this replica's memory, or PostgreSQL shared by every replica.
 */
export class TokenEndpoint {
  constructor(
    private readonly place: ProxyPlace,
    private readonly keys: SealingKeys,
    private readonly provider: UpstreamProvider,
    private readonly log: Logger,
    readonly state: SignInState = new MemorySignInState(),
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader("cache-control", "no-store");
    try {
      const body = await readRequestBody(req, 65_536);
      if (!/^application\/x-www-form-urlencoded/i.test(req.headers["content-type"] ?? "") || body === undefined)
        throw new TokenError("invalid_request", "the token request must be a form (application/x-www-form-urlencoded) under 64 KB");
      const form = new URLSearchParams(body);
      if (req.headers.authorization || form.has("client_secret"))
        throw new TokenError("invalid_client", "clients of this server are public: no client secret, PKCE instead");
      const grant = form.get("grant_type");
      if (grant === "authorization_code") return sendJson(res, 200, await this.redeem(form));
      if (grant === "refresh_token") return sendJson(res, 200, await this.refresh(form));
      throw new TokenError("unsupported_grant_type", "grant_type must be authorization_code or refresh_token");
    } catch (error) {
      // 401 for invalid_client only where the client authenticated with the Authorization header (RFC 6749 §5.2).
      if (error instanceof TokenError) {
        const status = error.error === "invalid_client" && req.headers.authorization !== undefined ? 401 : 400;
        audit(this.log, { event: "refused", status, reason: `${error.error}: ${error.message}` });
        return sendJson(res, status, { error: error.error, error_description: error.message });
      }
      if (error instanceof ProviderRefused) {
        if (error.appRefused)
          this.log.error(
            "sign-in: the provider refused this server's app credentials; check AUTH_CLIENT_ID, AUTH_CLIENT_SECRET and AUTH_PROVIDER_CLIENT_AUTH (basic or post)",
            { provider: this.provider.settings.tokenUrl.origin, cause: error.message },
          );
        const status = error.error === "invalid_grant" ? 400 : 503;
        audit(this.log, { event: "refused", status, reason: `${error.error}: ${error.message}` });
        return sendJson(res, status, { error: error.error, error_description: error.message });
      }
      throw error;
    }
  }

  /**
   * POST /revoke (RFC 7009): ends the sign-in a refresh or access token belongs to (its family: every token of it), for
   * the client it was issued to; logout, for a client. Answers 200 whatever the token, as the RFC says (a token this
   * server does not know, or another client's, reveals nothing).
   */
  async revoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader("cache-control", "no-store");
    const body = await readRequestBody(req, 16_384);
    if (!/^application\/x-www-form-urlencoded/i.test(req.headers["content-type"] ?? "") || body === undefined)
      return sendJson(res, 400, { error: "invalid_request", error_description: "the revocation must be a form under 16 KB" });
    const form = new URLSearchParams(body);
    const token = form.get("token") ?? "";
    const clientId = form.get("client_id");
    if (!token || !clientId)
      return sendJson(res, 400, { error: "invalid_request", error_description: "a revocation names the token and the client (client_id)" });
    const hint = form.get("token_type_hint");
    const kinds = hint === "access_token" ? (["access", "refresh"] as const) : (["refresh", "access"] as const);
    for (const kind of kinds) {
      const claims = await this.keys.tryOpen(kind, token);
      if (!claims) continue;
      const { family, sub, client_id: owner } = claims;
      if (typeof family === "string" && typeof sub === "string" && owner === clientId) {
        await this.state.revokeFamily(family, sub, Date.now() + REFRESH_SECONDS * 1000);
        audit(this.log, { event: "revoked", what: "sign-in", by: "client", user: sub, client: clientLabel(clientId) });
      }
      break;
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  }

  /** authorization_code: this server's code, checked, then the provider's code inside it redeemed for the user's tokens. */
  private async redeem(form: URLSearchParams): Promise<Record<string, unknown>> {
    await this.checkClient(form.get("client_id"));
    const claims = await this.opened("code", form.get("code"), "the code is not valid (expired, used, or not from this server)");
    const request = isRecord(claims.request) ? claims.request : {};
    const jti = String(claims.jti);
    if (!(await this.state.useCode(jti, Date.now() + CODE_MEMORY_MS)))
      throw new TokenError("invalid_grant", "the code has already been used");
    if (form.get("client_id") !== request.client_id) throw new TokenError("invalid_grant", "the code was issued to another client");
    if (form.get("redirect_uri") !== null && form.get("redirect_uri") !== request.redirect_uri)
      throw new TokenError("invalid_grant", "redirect_uri differs from the authorization request's");
    const resource = form.get("resource");
    if (resource !== null && !sameResource(resource, this.place.resource))
      throw new TokenError("invalid_target", "the code is for this server only");
    const verifier = form.get("code_verifier") ?? "";
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || !sameText(challengeOf(verifier), String(request.code_challenge)))
      throw new TokenError("invalid_grant", "the code_verifier does not match the code_challenge (PKCE); the code is spent, sign in again");
    const grant = await this.provider.redeem(String(claims.upstream_code), this.place.callback.href, String(claims.upstream_verifier));
    const scope = grant.scopes ?? (Array.isArray(request.scope) ? request.scope.map(String) : []);
    const subject = grant.subject ?? `session-${randomBytes(12).toString("base64url")}`;
    this.log.info("sign-in: a user signed in through the provider", { user: subject });
    const family = randomBytes(12).toString("base64url");
    await this.state.startFamily(family, subject, Date.now() + REFRESH_SECONDS * 1000);
    audit(this.log, { event: "sign-in", mode: "proxy", user: subject, client: clientLabel(String(request.client_id)) });
    return this.issue({ sub: subject, client_id: String(request.client_id), scope, family }, 0, grant);
  }

  /**
   * A registered client's id must open with a key this server holds: after the key it was sealed with is retired, the
   * client gets `invalid_client`, on which MCP clients register again by themselves (`invalid_grant` would leave them
   * holding an id nobody takes). A Client ID Metadata Document's URL is checked where it is fetched (/authorize).
   */
  private async checkClient(clientId: string | null): Promise<void> {
    if (!clientId) throw new TokenError("invalid_request", "the request names no client (client_id)");
    if (clientId.startsWith("https://")) return;
    if (!(await this.keys.tryOpen("client", clientId)))
      throw new TokenError(
        "invalid_client",
        "this server has not registered that client (or has retired the key it was registered with); register again",
      );
  }

  /**
   * refresh_token: used once, the provider's token refreshed when it has run out. Each sign-in's refresh tokens come in
   * generations; one older than the generation this replica expects next has been used already, and revokes the sign-in.
   */
  private async refresh(form: URLSearchParams): Promise<Record<string, unknown>> {
    await this.checkClient(form.get("client_id"));
    const claims = refreshClaims(await this.opened("refresh", form.get("refresh_token"), "the refresh token is not valid"));
    if (form.get("client_id") !== claims.client_id) throw new TokenError("invalid_grant", "the refresh token was issued to another client");
    if (await this.state.isRevoked(claims.family, claims.sub, claims.iat))
      throw new TokenError("invalid_grant", "this sign-in was revoked; sign in again");
    const expiresAt = Date.now() + REFRESH_SECONDS * 1000;
    const outcome = await this.state.advance(claims.family, claims.generation, claims.sub, expiresAt);
    if (outcome === "revoked") throw new TokenError("invalid_grant", "this sign-in was revoked; sign in again");
    if (outcome === "reused") {
      audit(this.log, { event: "revoked", what: "sign-in", by: "reuse", user: claims.sub, client: clientLabel(claims.client_id) });
      this.log.warn(
        `sign-in: a refresh token was used twice; its sign-in is revoked${this.state.location === "memory" ? " on this replica" : ""}`,
        {
          user: claims.sub,
        },
      );
      throw new TokenError("invalid_grant", "the refresh token has already been used");
    }
    const generation = claims.generation + 1;
    const { upstream } = claims;
    const now = Math.floor(Date.now() / 1000);
    let grant: ProviderGrant = {
      accessToken: upstream.access,
      ...(upstream.refresh ? { refreshToken: upstream.refresh } : {}),
      ...(upstream.expires_at ? { expiresAt: upstream.expires_at } : {}),
    };
    if (upstream.expires_at !== undefined && upstream.expires_at - now < REFRESH_MARGIN_SECONDS) {
      if (!upstream.refresh)
        throw new TokenError("invalid_grant", "the provider's token has expired and cannot be refreshed; sign in again");
      const fresh = await this.provider.refresh(upstream.refresh);
      grant = { ...fresh, refreshToken: fresh.refreshToken ?? upstream.refresh };
      this.log.info("sign-in: refreshed the provider's token", { user: claims.sub });
    }
    const scope = grant.scopes ?? claims.scope;
    return this.issue({ sub: claims.sub, client_id: claims.client_id, scope, family: claims.family }, generation, grant);
  }

  /** A sealed access token (audience: this server) and a sealed refresh token, both carrying the provider's tokens. */
  private async issue(who: { sub: string; client_id: string; scope: string[]; family: string }, generation: number, grant: ProviderGrant) {
    const now = Math.floor(Date.now() / 1000);
    const lifetime = Math.max(1, Math.min(ACCESS_SECONDS, (grant.expiresAt ?? now + ACCESS_SECONDS) - now));
    const access = await this.keys.seal(
      "access",
      {
        iss: this.place.issuerName,
        aud: this.place.resource.href,
        sub: who.sub,
        client_id: who.client_id,
        scope: who.scope.join(" "),
        family: who.family,
        upstream: grant.accessToken,
      },
      lifetime,
    );
    const upstream = {
      access: grant.accessToken,
      ...(grant.refreshToken ? { refresh: grant.refreshToken } : {}),
      ...(grant.expiresAt ? { expires_at: grant.expiresAt } : {}),
    };
    const jti = randomBytes(12).toString("base64url");
    const refresh = await this.keys.seal("refresh", { ...who, generation, jti, upstream }, REFRESH_SECONDS);
    return { access_token: access, token_type: "Bearer", expires_in: lifetime, refresh_token: refresh, scope: who.scope.join(" ") };
  }

  private async opened(kind: "code" | "refresh", value: string | null, message: string) {
    const claims = await this.keys.tryOpen(kind, value ?? "");
    if (!claims) throw new TokenError("invalid_grant", message);
    return claims;
  }
}

/** The PKCE S256 challenge of a verifier. */
function challengeOf(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function refreshClaims(claims: Record<string, unknown>): RefreshClaims {
  const upstream = claims.upstream;
  if (
    typeof claims.sub !== "string" ||
    typeof claims.client_id !== "string" ||
    typeof claims.family !== "string" ||
    typeof claims.jti !== "string" ||
    typeof claims.generation !== "number" ||
    !Number.isSafeInteger(claims.generation) ||
    claims.generation < 0
  )
    throw new TokenError("invalid_grant", "the refresh token is not valid");
  if (typeof upstream !== "object" || upstream === null || !("access" in upstream) || typeof upstream.access !== "string")
    throw new TokenError("invalid_grant", "the refresh token is not valid");
  const refresh = "refresh" in upstream && typeof upstream.refresh === "string" ? upstream.refresh : undefined;
  const expires = "expires_at" in upstream && typeof upstream.expires_at === "number" ? upstream.expires_at : undefined;
  return {
    sub: claims.sub,
    client_id: claims.client_id,
    scope: Array.isArray(claims.scope) ? claims.scope.map(String) : [],
    family: claims.family,
    generation: claims.generation,
    jti: claims.jti,
    iat: typeof claims.iat === "number" ? claims.iat : 0,
    upstream: { access: upstream.access, ...(refresh ? { refresh } : {}), ...(expires ? { expires_at: expires } : {}) },
  };
}
