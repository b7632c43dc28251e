import { clientBasic } from "../../base/client-basic.js";
import { isRecord } from "../../base/own-property.js";

/** The API's own sign-in (the upstream OAuth provider) and the operator's app registered with it. */
export interface ProviderSettings {
  authorizationUrl: URL;
  tokenUrl: URL;
  /** `AUTH_CLIENT_ID` / `AUTH_CLIENT_SECRET`: the operator's app at the provider. */
  client: { id: string; secret: string };
  /** `AUTH_PROVIDER_SCOPES`: scopes asked of the provider on every sign-in besides the client's (`offline_access`, …). */
  scopes: readonly string[];
  /** `AUTH_PROVIDER_CLIENT_AUTH`: how the app authenticates at the token endpoint (`basic`, RFC 6749's default, or `post`). */
  clientAuth: "basic" | "post";
}

/** What the provider granted one user. */
export interface ProviderGrant {
  accessToken: string;
  refreshToken?: string;
  /** When the access token expires (seconds since the epoch); undefined when the provider gives no lifetime. */
  expiresAt?: number;
  /** The scopes granted, when the provider says (space- or comma-separated, as GitHub writes them). */
  scopes?: string[];
  /** The user's `sub` from an OpenID Connect id_token, received straight from the token endpoint. */
  subject?: string;
}

/**
 * The provider refused or failed: `invalid_grant` for a code or refresh token it no longer takes; `appRefused` when it
 * refused the operator's own app (a wrong `AUTH_CLIENT_SECRET`), which no user can mend.
 */
export class ProviderRefused extends Error {
  override name = "ProviderRefused";
  constructor(
    readonly error: "invalid_grant" | "temporarily_unavailable",
    message: string,
    readonly appRefused = false,
  ) {
    super(message);
  }
}

/** The errors with which providers refuse the app's own credentials (GitHub: `incorrect_client_credentials`, with 200). */
const APP_REFUSALS = new Set(["invalid_client", "unauthorized_client", "incorrect_client_credentials"]);

const TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Calls the provider's token endpoint as the operator's app: a code for the user's tokens, a refresh for new ones. */
export class UpstreamProvider {
  constructor(
    readonly settings: ProviderSettings,
    private readonly fetchFn: typeof fetch = fetch,
  ) {}

  /** Where the user's browser goes to sign in at the provider. */
  authorizationRedirect(parts: { redirectUri: string; state: string; codeChallenge: string; scopes: readonly string[] }): URL {
    const url = new URL(this.settings.authorizationUrl.href);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", this.settings.client.id);
    url.searchParams.set("redirect_uri", parts.redirectUri);
    url.searchParams.set("state", parts.state);
    url.searchParams.set("code_challenge", parts.codeChallenge);
    url.searchParams.set("code_challenge_method", "S256");
    const scopes = [...new Set([...parts.scopes, ...this.settings.scopes])];
    if (scopes.length > 0) url.searchParams.set("scope", scopes.join(" "));
    return url;
  }

  /** The user's tokens for the provider's code (PKCE-bound to our verifier). */
  redeem(code: string, redirectUri: string, verifier: string): Promise<ProviderGrant> {
    return this.grant({ grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier });
  }

  /** New tokens for the user's refresh token (the provider may rotate it). */
  refresh(refreshToken: string): Promise<ProviderGrant> {
    return this.grant({ grant_type: "refresh_token", refresh_token: refreshToken });
  }

  private async grant(fields: Record<string, string>): Promise<ProviderGrant> {
    const { client, clientAuth, tokenUrl } = this.settings;
    const body = new URLSearchParams(fields);
    const headers: Record<string, string> = { accept: "application/json", "content-type": "application/x-www-form-urlencoded" };
    if (clientAuth === "post") {
      body.set("client_id", client.id);
      body.set("client_secret", client.secret);
    } else {
      headers.authorization = clientBasic(client.id, client.secret);
    }
    let status: number;
    let answer: Record<string, unknown>;
    try {
      const response = await this.fetchFn(tokenUrl, {
        method: "POST",
        headers,
        body,
        redirect: "error",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      status = response.status;
      const text = await response.text();
      if (text.length > MAX_RESPONSE_BYTES) throw new Error("the answer is too large");
      answer = parseAnswer(text, response.headers.get("content-type") ?? "");
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ProviderRefused("temporarily_unavailable", `the provider's token endpoint cannot be reached (${reason})`);
    }
    // GitHub answers a bad code with 200 and an `error` field.
    if (status >= 500) throw new ProviderRefused("temporarily_unavailable", `the provider's token endpoint answered ${status}`);
    if (typeof answer.error === "string" || typeof answer.access_token !== "string") {
      const error = typeof answer.error === "string" ? answer.error : `status ${status}`;
      if (APP_REFUSALS.has(error) || (status === 401 && typeof answer.error !== "string"))
        throw new ProviderRefused(
          "temporarily_unavailable",
          `the provider refused this server's own app (${error.slice(0, 100)}): the server's operator must correct its credentials`,
          true,
        );
      throw new ProviderRefused("invalid_grant", `the provider refused the grant (${error.slice(0, 100)})`);
    }
    const lifetime = typeof answer.expires_in === "number" ? answer.expires_in : Number(answer.expires_in);
    const scope = typeof answer.scope === "string" ? answer.scope.split(/[\s,]+/).filter(Boolean) : undefined;
    const subject = typeof answer.id_token === "string" ? idTokenSubject(answer.id_token) : undefined;
    return {
      accessToken: answer.access_token,
      ...(typeof answer.refresh_token === "string" ? { refreshToken: answer.refresh_token } : {}),
      ...(Number.isFinite(lifetime) && lifetime > 0 ? { expiresAt: Math.floor(Date.now() / 1000) + lifetime } : {}),
      ...(scope ? { scopes: scope } : {}),
      ...(subject ? { subject } : {}),
    };
  }
}

/** A token endpoint's answer: JSON, or the form encoding GitHub falls back to. */
function parseAnswer(text: string, contentType: string): Record<string, unknown> {
  if (/x-www-form-urlencoded/i.test(contentType)) return Object.fromEntries(new URLSearchParams(text));
  const value: unknown = JSON.parse(text);
  if (!isRecord(value)) throw new Error("the answer is not a JSON object");
  return value;
}

/** The `sub` of an id_token received directly from the token endpoint over TLS (OpenID Connect Core 3.1.3.7). */
function idTokenSubject(idToken: string): string | undefined {
  try {
    const payload: unknown = JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString("utf8"));
    const sub = typeof payload === "object" && payload !== null && "sub" in payload ? payload.sub : undefined;
    return typeof sub === "string" && sub.length > 0 && sub.length <= 255 ? sub : undefined;
  } catch {
    return undefined;
  }
}
