import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { audit } from "../../base/audit.js";
import type { Logger } from "../../base/logger.js";
import { isRecord } from "../../base/own-property.js";
import { isLoopbackAddress } from "../../http/origin.js";
import { readRequestBody } from "../../http/request-body.js";
import { type ClientDirectory, type ClientRecord, ClientRefused, clientLabel } from "./client-directory.js";
import { sendConsentPage, sendErrorPage } from "./consent-page.js";
import type { ProxyPlace } from "./proxy-place.js";
import type { SealingKeys } from "./sealed.js";
import type { UpstreamProvider } from "./upstream-provider.js";

/** An authorization request as checked: who asks, where the answer goes, and what it binds. */
interface CheckedRequest {
  client_id: string;
  redirect_uri: string;
  state?: string;
  code_challenge: string;
  scope: string[];
  resource: string;
}

/** How long a user has between the consent page and coming back from the provider; and a code's life. */
const FLOW_SECONDS = 600;
const CODE_SECONDS = 60;

/**
 * The browser half of the OAuth proxy: `/authorize` checks the client's request and shows the consent page;
 * `/consent` sends the user to the provider (or back with `access_denied`); `/oauth/callback` takes the provider's
 * code and answers the client with this server's own code. Every step is sealed and bound to the browser by a cookie,
 * so any replica holding the key can take the next one.
 */
export class AuthorizationFlow {
  constructor(
    private readonly place: ProxyPlace,
    private readonly clients: ClientDirectory,
    private readonly keys: SealingKeys,
    private readonly provider: UpstreamProvider,
    private readonly log: Logger,
  ) {}

  /**
   * GET /authorize: the client's request checked, then the consent page. An error about the client or its redirect URI
   * is shown on a page; any other goes back to a loopback redirect URI (a native app on the user's own machine, RFC
   * 8252) and is shown on a page for every other: anyone may register a client with any redirect URI, and this server's
   * own address must not send a browser on to a site before its user has acted (RFC 9700 §4.11.2).
   */
  async authorize(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const query = new URL(req.url ?? "/", this.place.issuer).searchParams;
    const repeated = [...new Set([...query.keys()].filter((key) => query.getAll(key).length > 1))];
    const clientId = query.get("client_id");
    if (!clientId) return sendErrorPage(res, 400, "The request names no client (client_id).");
    let client: ClientRecord;
    try {
      client = await this.clients.find(clientId);
    } catch (error) {
      if (error instanceof ClientRefused) return sendErrorPage(res, 400, `This client cannot sign in here: ${error.message}.`);
      throw error;
    }
    const given = query.get("redirect_uri") ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (!given || !client.redirectUris.includes(given) || repeated.includes("redirect_uri"))
      return sendErrorPage(res, 400, "The redirect URI is not one this client registered (they must match exactly).");
    const state = query.get("state") ?? undefined;
    const back = (error: string, description: string) =>
      isLoopbackRedirect(given)
        ? this.redirectBack(res, given, { error, error_description: description, state })
        : sendErrorPage(
            res,
            400,
            `The client's sign-in request cannot go on (${error}: ${description}). Return to your application and start again.`,
          );
    if (repeated.length > 0) return back("invalid_request", `parameters given more than once: ${repeated.join(", ")}`);
    if (query.get("response_type") !== "code") return back("unsupported_response_type", "only response_type=code is offered");
    const challenge = query.get("code_challenge");
    if (!challenge || query.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge))
      return back("invalid_request", "PKCE is required: code_challenge with code_challenge_method=S256");
    const resource = query.get("resource") ?? this.place.resource.href;
    if (!sameResource(resource, this.place.resource))
      return back("invalid_target", `this server issues tokens for ${this.place.resource.href} only`);
    const scope = this.requestedScopes(query.get("scope"));
    if (!scope) return back("invalid_scope", "at most 50 scopes, each printable text of at most 100 characters");
    const request: CheckedRequest = {
      client_id: client.id,
      redirect_uri: given,
      ...(state !== undefined ? { state } : {}),
      code_challenge: challenge,
      scope,
      resource: this.place.resource.href,
    };
    const nonce = randomBytes(16).toString("base64url");
    res.setHeader("set-cookie", this.flowCookie(nonce, FLOW_SECONDS));
    sendConsentPage(res, {
      server: this.place.serverName,
      client,
      redirectUri: given,
      scopes: request.scope,
      provider: this.provider.settings.authorizationUrl,
      request: await this.keys.seal("consent", { request, nonce }, FLOW_SECONDS),
    });
  }

  /** POST /consent: the user's answer, from this browser only; approve goes to the provider, anything else back to the client. */
  async consent(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== "null" && origin !== this.place.issuer.origin)
      return sendErrorPage(res, 403, "Consent can only be given on this server's own page.");
    const body = await readRequestBody(req, 16_384);
    const form = new URLSearchParams(body ?? "");
    const sealed = flowClaims(await this.keys.tryOpen("consent", form.get("request") ?? ""));
    if (!sealed) return sendErrorPage(res, 400, "This consent form is not valid any more; start the sign-in again from your client.");
    if (this.browserNonce(req, sealed.nonce) !== sealed.nonce)
      return sendErrorPage(res, 400, "This consent form was not shown in this browser; start the sign-in again from your client.");
    const { request, nonce } = sealed;
    if (form.get("decision") !== "approve") {
      audit(this.log, {
        event: "refused",
        status: 302,
        reason: "the user did not allow the client (consent page)",
        client: clientLabel(request.client_id),
      });
      return this.redirectBack(res, request.redirect_uri, {
        error: "access_denied",
        error_description: "the user did not allow access",
        state: request.state,
      });
    }
    const verifier = randomBytes(32).toString("base64url");
    const upstreamState = await this.keys.seal("upstream-state", { request, nonce, verifier }, FLOW_SECONDS);
    const target = this.provider.authorizationRedirect({
      redirectUri: this.place.callback.href,
      state: upstreamState,
      codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
      scopes: request.scope,
    });
    res.writeHead(303, { location: target.href, "cache-control": "no-store" });
    res.end();
  }

  /** GET /oauth/callback: the provider's answer; its code (not yet redeemed) goes into this server's own short-lived code. */
  async callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const query = new URL(req.url ?? "/", this.place.issuer).searchParams;
    const sealed = flowClaims(await this.keys.tryOpen("upstream-state", query.get("state") ?? ""));
    if (!sealed?.verifier) return sendErrorPage(res, 400, "The sign-in's state does not match; start the sign-in again from your client.");
    if (this.browserNonce(req, sealed.nonce) !== sealed.nonce)
      return sendErrorPage(res, 400, "The sign-in's state does not match this browser; start the sign-in again from your client.");
    res.setHeader("set-cookie", this.flowCookie(sealed.nonce, 0));
    const { request } = sealed;
    const code = query.get("code");
    if (!code) {
      const reason = query.get("error") === "access_denied" ? "access_denied" : "server_error";
      return this.redirectBack(res, request.redirect_uri, {
        error: reason,
        error_description: "the provider did not sign the user in",
        state: request.state,
      });
    }
    const ours = await this.keys.seal(
      "code",
      { request, upstream_code: code, upstream_verifier: sealed.verifier, jti: randomBytes(12).toString("base64url") },
      CODE_SECONDS,
    );
    this.redirectBack(res, request.redirect_uri, { code: ours, state: request.state });
  }

  /** The scopes to ask the provider for: those requested (the provider decides what it grants), at most 50 plain words. */
  private requestedScopes(requested: string | null): string[] | undefined {
    const asked = [...new Set((requested ?? "").split(" ").filter(Boolean))];
    return asked.length <= 50 && asked.every((scope) => /^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(scope)) ? asked : undefined;
  }

  /** A redirect to the client's registered URI with these parameters and `iss` (RFC 9207). */
  private redirectBack(res: ServerResponse, redirectUri: string, params: Record<string, string | undefined>): void {
    const url = new URL(redirectUri);
    for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
    url.searchParams.set("iss", this.place.issuerName);
    res.writeHead(302, { location: url.href, "cache-control": "no-store" });
    res.end();
  }

  /** The cookie binding one sign-in to the browser that started it: named after its nonce, so flows do not collide. */
  private flowCookie(nonce: string, maxAge: number): string {
    const secure = this.place.issuer.protocol === "https:" ? "; Secure" : "";
    return `oauth_flow_${nonce.slice(0, 10)}=${maxAge > 0 ? nonce : ""}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
  }

  /** The nonce this browser holds for a flow, from its cookie. */
  private browserNonce(req: IncomingMessage, nonce: string): string | undefined {
    const name = `oauth_flow_${nonce.slice(0, 10)}=`;
    const found = (req.headers.cookie ?? "").split(/;\s*/).find((part) => part.startsWith(name));
    return found?.slice(name.length);
  }
}

/** The sealed request and nonce of a consent form (and an upstream state's PKCE verifier); undefined when incomplete. */
function flowClaims(
  claims: Record<string, unknown> | undefined,
): { request: CheckedRequest; nonce: string; verifier?: string } | undefined {
  const { request, nonce, verifier } = claims ?? {};
  if (typeof nonce !== "string" || !isRecord(request)) return undefined;
  const { client_id, redirect_uri, state, code_challenge, scope, resource } = request;
  if (
    typeof client_id !== "string" ||
    typeof redirect_uri !== "string" ||
    typeof code_challenge !== "string" ||
    typeof resource !== "string"
  )
    return undefined;
  const scopes = Array.isArray(scope) ? scope.map(String) : [];
  return {
    request: { client_id, redirect_uri, ...(typeof state === "string" ? { state } : {}), code_challenge, scope: scopes, resource },
    nonce,
    ...(typeof verifier === "string" ? { verifier } : {}),
  };
}

/** Whether a `resource` parameter names this server (RFC 8707), ignoring a trailing slash. */
export function sameResource(given: string, resource: URL): boolean {
  if (!URL.canParse(given)) return false;
  const strip = (href: string) => href.replace(/\/$/, "");
  return strip(new URL(given).href) === strip(resource.href);
}

/** Whether a redirect URI is http on a loopback address: it reaches an app on the user's own machine, never a site. */
function isLoopbackRedirect(uri: string): boolean {
  const url = new URL(uri);
  return url.protocol === "http:" && isLoopbackAddress(url.hostname.replace(/^\[|\]$/g, ""));
}
