import { createHash } from "node:crypto";
import { createRemoteJWKSet, type JWTPayload, errors as joseErrors, jwtVerify } from "jose";
import { clientBasic } from "../base/client-basic.js";
import { ExpiringCache } from "../base/expiring-cache.js";
import { AttemptBudget } from "./attempt-budget.js";

/** What resource mode needs to check a token: whose tokens, for which resource, and how to ask about opaque ones. */
export interface TokenSettings {
  /** `AUTH_ISSUER`: the authorization server whose tokens this server takes (its `iss`). */
  issuer: URL;
  /** The canonical URI of this MCP server: a token's audience must be it (RFC 8707). */
  resource: URL;
  /** `AUTH_CLIENT_ID` / `AUTH_CLIENT_SECRET`: this server's own client, for introspection and token exchange. */
  client?: { id: string; secret: string };
  /**
   * `AUTH_INTROSPECTION_CACHE_SECONDS`: how long an introspected token's answer is kept, so how long a token revoked at
   * the authorization server may still be taken. @default 0 (every request asks)
   */
  introspectionCacheMs?: number;
  /** `AUTH_REQUIRE_AT_JWT=on`: a JWT must be typed as an access token (`typ: at+jwt`, RFC 9068). */
  requireAtJwt?: boolean;
}

/** What a valid token says of its caller. */
export interface VerifiedToken {
  subject: string;
  client?: string;
  scopes: Set<string>;
  expiresAt: number;
  /** Proxy mode: the user's provider token the access token carries, as an Authorization value. */
  upstreamAuthorization?: string;
  /** Set the first time this server sees the token (a sign-in, for the audit trail). */
  fresh?: boolean;
}

/** What checks a bearer token: the issuer's (resource mode) or this server's own (proxy mode). */
export interface TokenCheck {
  /** `source`: the sender's address group, whose new tokens are introspected within a budget of their own. */
  verify(token: string, source?: string): Promise<VerifiedToken>;
}

/** A token this server does not take, with why (the reason goes in `error_description`, never a secret). */
export class InvalidToken extends Error {
  override name = "InvalidToken";

  /** `who`: the user and client a token names that opened but is refused (a revoked sign-in), for the audit line. */
  constructor(
    message: string,
    readonly who?: { subject: string; client?: string },
  ) {
    super(message);
  }
}

/** The authorization server cannot be asked right now: no token can be checked (503, not the caller's fault). */
export class SignInUnavailable extends Error {
  override name = "SignInUnavailable";
}

/** A source sent more tokens never seen before than introspection takes from it (429, with when to try again). */
export class TooManyNewTokens extends Error {
  override name = "TooManyNewTokens";
  constructor(readonly retryAfterSeconds: number) {
    super(`too many new tokens from your network: try again in ${retryAfterSeconds} s`);
  }
}

/** The authorization server's metadata this server reads (RFC 8414 / OpenID Connect Discovery). */
interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  token_endpoint?: string;
  introspection_endpoint?: string;
}

/** Signatures a token may carry: asymmetric only (never `none`, never an HMAC keyed with a public key). */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];

/** Clock skew allowed on `exp` and `nbf`, in seconds. */
const CLOCK_SKEW_SECONDS = 30;

/** How long the issuer's metadata is kept, and how long after a failed fetch it is asked again. */
const METADATA_TTL_MS = 3_600_000;
const METADATA_RETRY_MS = 10_000;

/** Time and size bounds on every request to the authorization server. */
const FETCH_TIMEOUT_MS = 5_000;
const MAX_METADATA_BYTES = 256 * 1024;

/** Tokens whose check is kept until they expire (JWTs by their text, opaque ones by their digest): at most this many. */
const MAX_CACHED_TOKENS = 10_000;

/** How long a token the authorization server called inactive is refused without asking again. */
const REFUSAL_TTL_MS = 60_000;

/** Introspections of tokens never seen active, per address group: 20 at once, then 2 a second. */
const NEW_TOKEN_BURST = 20;
const NEW_TOKENS_PER_SECOND = 2;

/** The JWT `typ` values an access token may carry: RFC 9068's, and the plain ones most servers write (or none). */
const ACCESS_TOKEN_TYPES = new Set(["at+jwt", "application/at+jwt"]);
const PLAIN_TYPES = new Set(["jwt", "application/jwt"]);

/**
 * Checks bearer tokens for resource mode: a JWT against the issuer's keys (discovered from its metadata, cached, and
 * fetched again for an unknown `kid`), with `iss`, `aud` (this server's canonical URI), `exp`, `nbf`, `iat` and its
 * type (an ID token is not an access token); an opaque token by RFC 7662 introspection at every request (or kept
 * `introspectionCacheMs`), so a revocation holds at once. A refused token is refused again without asking for a
 * minute, and tokens never seen active are introspected within a budget per address group.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#token-handling
 */
export class TokenVerifier implements TokenCheck {
  private metadata: { value: IssuerMetadata; until: number } | undefined;
  private pendingMetadata: Promise<IssuerMetadata> | undefined;
  private failure: { reason: string; until: number } | undefined;
  private keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  private readonly introspected = new ExpiringCache<VerifiedToken>(MAX_CACHED_TOKENS);
  /** Opaque tokens the authorization server called inactive (by digest), with why. */
  private readonly refused = new ExpiringCache<{ reason: string; expiresAt: number }>(MAX_CACHED_TOKENS);
  /** Opaque tokens once found active (by digest), until they expire: asking about them again is not budgeted. */
  private readonly seenActive = new ExpiringCache<{ expiresAt: number }>(MAX_CACHED_TOKENS);
  /** Introspections under way, by digest: concurrent requests with one token ask once. */
  private readonly asking = new Map<string, Promise<VerifiedToken>>();
  private readonly newTokens = new AttemptBudget(NEW_TOKEN_BURST, NEW_TOKENS_PER_SECOND);
  /** JWTs already verified, until they expire: a client sends its token with every request, and a signature check costs. */
  private readonly verifiedJwts = new ExpiringCache<VerifiedToken>(MAX_CACHED_TOKENS);

  constructor(
    private readonly settings: TokenSettings,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  /** The token's caller, or InvalidToken with the reason (TooManyNewTokens past `source`'s budget of new opaque tokens). */
  async verify(token: string, source?: string): Promise<VerifiedToken> {
    if (token.length > 16_384) throw new InvalidToken("the token is too long");
    return token.split(".").length === 3 ? this.verifyJwt(token) : this.introspect(token, source);
  }

  private async verifyJwt(token: string): Promise<VerifiedToken> {
    const known = this.verifiedJwts.get(token);
    if (known) return known;
    const metadata = await this.issuerMetadata();
    if (!metadata.jwks_uri) throw new InvalidToken("the authorization server publishes no keys (jwks_uri)");
    this.keys ??= createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: FETCH_TIMEOUT_MS, cooldownDuration: 30_000 });
    let payload: JWTPayload;
    let type: string | undefined;
    try {
      ({
        payload,
        protectedHeader: { typ: type },
      } = await jwtVerify(token, this.keys, {
        issuer: this.issuerText(),
        audience: this.settings.resource.href,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ["exp"],
      }));
    } catch (error) {
      throw new InvalidToken(jwtProblem(error));
    }
    const problem = notAnAccessToken(type, payload, this.settings.requireAtJwt === true);
    if (problem) throw new InvalidToken(problem);
    const found = verified(payload);
    // Kept as it was verified (`nbf` already past).
    this.verifiedJwts.set(token, found);
    return { ...found, fresh: true };
  }

  /**
   * RFC 7662: asks the authorization server about an opaque token, as this server's own client: at every request
   * unless `introspectionCacheMs` keeps the answer; a refusal is kept a minute; a token never seen active spends one
   * attempt of its source's budget.
   */
  private async introspect(token: string, source: string | undefined): Promise<VerifiedToken> {
    const key = createHash("sha256").update(token).digest("base64url");
    const cached = this.introspected.get(key);
    if (cached) return cached;
    const refusal = this.refused.get(key);
    if (refusal) throw new InvalidToken(refusal.reason);
    const pending = this.asking.get(key);
    if (pending) return pending;
    if (source !== undefined && !this.seenActive.get(key) && !this.newTokens.take(source))
      throw new TooManyNewTokens(this.newTokens.retryAfter(source));
    const asked = this.askAbout(token, key).finally(() => this.asking.delete(key));
    this.asking.set(key, asked);
    return asked;
  }

  private async askAbout(token: string, key: string): Promise<VerifiedToken> {
    const { client } = this.settings;
    const metadata = await this.issuerMetadata();
    if (!client || !metadata.introspection_endpoint)
      throw new InvalidToken("the token is not a JWT, and this server cannot introspect tokens");
    const answer = await this.post(metadata.introspection_endpoint, new URLSearchParams({ token }), client).catch(() => {
      throw new InvalidToken("the authorization server did not answer the introspection");
    });
    const refuse = (reason: string): never => {
      this.refused.set(key, { reason, expiresAt: Date.now() + REFUSAL_TTL_MS });
      throw new InvalidToken(reason);
    };
    if (answer.active !== true) refuse("the token is not active");
    if (answer.iss !== undefined && answer.iss !== this.issuerText()) refuse("the token is from another issuer");
    const audiences = Array.isArray(answer.aud) ? answer.aud : answer.aud === undefined ? [] : [answer.aud];
    if (!audiences.includes(this.settings.resource.href)) refuse("the token is meant for another resource");
    const found = verified(answer);
    const fresh = !this.seenActive.get(key);
    this.seenActive.set(key, { expiresAt: found.expiresAt });
    const keepMs = this.settings.introspectionCacheMs ?? 0;
    if (keepMs > 0) this.introspected.set(key, { ...found, expiresAt: Math.min(found.expiresAt, Date.now() + keepMs) });
    return fresh ? { ...found, fresh } : found;
  }

  /**
   * Throws unless the authorization server can be asked now: its metadata read (cached an hour) and its keys fetched
   * (for readiness: a replica that cannot check tokens is not ready).
   */
  async ready(): Promise<void> {
    const metadata = await this.issuerMetadata();
    if (!metadata.jwks_uri) return;
    const response = await this.fetchFn(metadata.jwks_uri, { redirect: "error", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`its keys (${new URL(metadata.jwks_uri).pathname}) answered ${response.status}`);
  }

  /** Exchanges the caller's MCP token for one meant for the upstream (RFC 8693), at the issuer's token endpoint. */
  async exchange(token: string, audience: string): Promise<{ token: string; expiresAt: number }> {
    const { client } = this.settings;
    const metadata = await this.issuerMetadata();
    if (!client || !metadata.token_endpoint)
      throw new Error("token exchange needs AUTH_CLIENT_ID, AUTH_CLIENT_SECRET and a token endpoint");
    const answer = await this.post(
      metadata.token_endpoint,
      new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
        subject_token: token,
        subject_token_type: "urn:ietf:params:oauth:token-type:access_token",
        requested_token_type: "urn:ietf:params:oauth:token-type:access_token",
        audience,
      }),
      client,
    );
    if (typeof answer.access_token !== "string") throw new Error("the token exchange gave no access token");
    const lifetime = typeof answer.expires_in === "number" ? answer.expires_in : 300;
    return { token: answer.access_token, expiresAt: Date.now() + Math.max(0, lifetime - 30) * 1000 };
  }

  /** The issuer's metadata (RFC 8414, else OpenID Connect Discovery), its `issuer` checked; cached, asked again after a failure. */
  issuerMetadata(): Promise<IssuerMetadata> {
    const now = Date.now();
    if (this.metadata && now < this.metadata.until) return Promise.resolve(this.metadata.value);
    if (this.failure && now < this.failure.until) return Promise.reject(new SignInUnavailable(this.failure.reason));
    this.pendingMetadata ??= this.discover().then(
      (value) => {
        this.metadata = { value, until: Date.now() + METADATA_TTL_MS };
        this.pendingMetadata = undefined;
        return value;
      },
      (error: unknown) => {
        const reason = `the authorization server's metadata cannot be read (${error instanceof Error ? error.message : String(error)})`;
        this.failure = { reason, until: Date.now() + METADATA_RETRY_MS };
        this.pendingMetadata = undefined;
        throw new SignInUnavailable(reason);
      },
    );
    return this.pendingMetadata;
  }

  private async discover(): Promise<IssuerMetadata> {
    const { issuer } = this.settings;
    const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
    const candidates = [
      new URL(`/.well-known/oauth-authorization-server${path}`, issuer),
      new URL(`${path}/.well-known/openid-configuration`, issuer),
    ];
    let last: unknown;
    for (const url of candidates) {
      try {
        const response = await this.fetchFn(url, { redirect: "error", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
        if (!response.ok) throw new Error(`${url.pathname}: ${response.status}`);
        const text = await response.text();
        if (text.length > MAX_METADATA_BYTES) throw new Error(`${url.pathname}: too large`);
        const value = JSON.parse(text) as IssuerMetadata;
        if (value.issuer !== this.issuerText()) throw new Error(`${url.pathname} names another issuer`);
        return value;
      } catch (error) {
        last = error;
      }
    }
    throw last instanceof Error ? last : new Error(String(last));
  }

  /** A form POST as this server's client (HTTP Basic), answered with a JSON object. */
  private async post(endpoint: string, body: URLSearchParams, client: { id: string; secret: string }): Promise<Record<string, unknown>> {
    const response = await this.fetchFn(endpoint, {
      method: "POST",
      headers: {
        authorization: clientBasic(client.id, client.secret),
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded",
      },
      body,
      redirect: "error",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok || text.length > MAX_METADATA_BYTES) throw new Error(`${new URL(endpoint).pathname} answered ${response.status}`);
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
    return value as Record<string, unknown>;
  }

  private issuerText(): string {
    return issuerName(this.settings.issuer);
  }
}

/** The issuer as tokens and metadata write it: the configured URL without a trailing slash on a bare origin. */
export function issuerName(issuer: URL): string {
  return issuer.pathname === "/" ? issuer.origin : issuer.href;
}

/**
 * What a token says of its caller: `sub` (else, for a client acting for itself, as a client-credentials token has no
 * user, `client:` and its `client_id` or `azp`), the client, the scopes (`scope`, else `scp`, as text or a list: Okta
 * and Entra ID write `scp`) and its expiry.
 */
function verified(claims: Record<string, unknown>): VerifiedToken {
  const scopes = typeof claims.scope === "string" || Array.isArray(claims.scope) ? claims.scope : claims.scp;
  const scope = typeof scopes === "string" ? scopes.split(" ") : Array.isArray(scopes) ? scopes.map(String) : [];
  const client = typeof claims.client_id === "string" ? claims.client_id : typeof claims.azp === "string" ? claims.azp : undefined;
  const exp = typeof claims.exp === "number" ? claims.exp * 1000 : Date.now() + 60_000;
  const subject = typeof claims.sub === "string" && claims.sub !== "" ? claims.sub : client ? `client:${client}` : undefined;
  if (subject === undefined) throw new InvalidToken("the token names no subject (sub) and no client (client_id)");
  return { subject, ...(client ? { client } : {}), scopes: new Set(scope.filter(Boolean)), expiresAt: exp };
}

/**
 * Why a verified JWT is not an access token, or undefined when it is one: its `typ` names another kind (an ID token,
 * a logout token), it carries what only ID tokens carry (`nonce`, `at_hash`, `c_hash`, Keycloak's `typ: ID`), or it
 * was issued in the future. `strict`: only RFC 9068's `at+jwt` is taken.
 */
function notAnAccessToken(type: string | undefined, payload: JWTPayload, strict: boolean): string | undefined {
  const typ = type?.toLowerCase();
  if (
    strict ? typ === undefined || !ACCESS_TOKEN_TYPES.has(typ) : typ !== undefined && !ACCESS_TOKEN_TYPES.has(typ) && !PLAIN_TYPES.has(typ)
  )
    return strict ? "the token is not typed as an access token (typ at+jwt)" : `the token's type (${typ}) is not an access token`;
  if (payload.nonce !== undefined || payload.at_hash !== undefined || payload.c_hash !== undefined || payload.typ === "ID")
    return "the token is an ID token, not an access token";
  if (typeof payload.iat === "number" && payload.iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS) return "the token was issued in the future";
  return undefined;
}

/** Why jose refused a JWT, in words for `error_description`. */
function jwtProblem(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return "the token has expired";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "the token is meant for another resource";
    if (error.claim === "iss") return "the token is from another issuer";
    if (error.claim === "nbf") return "the token is not valid yet";
    return `the token's ${error.claim} claim is not acceptable`;
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return "the token's signature algorithm is not accepted";
  if (error instanceof joseErrors.JWKSNoMatchingKey) return "the token is signed with a key the authorization server does not publish";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof InvalidToken) return error.message;
  if (error instanceof joseErrors.JWKSTimeout) return "the authorization server's keys did not arrive in time";
  return "the token cannot be read";
}
