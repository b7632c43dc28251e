import type { IncomingMessage, ServerResponse } from "node:http";
import { audit, namedCaller } from "../base/audit.js";
import { type Logger, silentLogger } from "../base/logger.js";
import { openRequestScope, type SignedInCaller } from "../base/request-scope.js";
import { sendJson } from "../http/json-response.js";
import type { SignInPort } from "../http/sign-in-port.js";
import {
  InvalidToken,
  issuerName,
  SignInUnavailable,
  type TokenCheck,
  type TokenSettings,
  TokenVerifier,
  TooManyNewTokens,
} from "./token-verifier.js";

/** Resource or proxy mode: the authorization server, this server's canonical URI, and what every call needs. */
export interface SignInSettings extends TokenSettings {
  /** `AUTH_SCOPES`: scopes every request needs, besides those the document gives an operation. */
  requiredScopes: readonly string[];
  /** `AUTH_LIST_ALL_TOOLS=on`: `tools/list` shows every tool, not only those the token may call. */
  listAllTools: boolean;
  /** `AUTH_UPSTREAM=exchange`: the upstream gets a token exchanged for the caller's (RFC 8693), for this audience. */
  exchangeAudience?: string;
  /** Proxy mode: this server checks its own tokens, and answers the authorization server's endpoints. */
  proxy?: TokenCheck & { answers(req: IncomingMessage, res: ServerResponse): boolean };
}

/** Where Protected Resource Metadata is published for a resource: `/.well-known/oauth-protected-resource` + its path. */
export function metadataUrl(resource: URL): URL {
  const path = resource.pathname === "/" ? "" : resource.pathname;
  return new URL(`/.well-known/oauth-protected-resource${path}`, resource);
}

/**
 * The resource-server half of MCP authorization (RFC 9728 metadata, RFC 6750 challenges): publishes where to sign in,
 * answers a request without a valid bearer token with 401 (`invalid_token` when one was sent), and one whose token
 * lacks a scope with 403 `insufficient_scope` naming the scopes to ask for.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
 */
export class SignInGuard implements SignInPort {
  readonly verifier: TokenCheck;
  private readonly metadataPaths: ReadonlySet<string>;
  private readonly metadataHref: string;
  /** The scopes this server publishes (`scopes_supported`): the required ones and every scope its operations name. */
  private scopesSupported: readonly string[];

  constructor(
    readonly settings: SignInSettings,
    fetchFn?: typeof fetch,
    /** Where refusals are logged: every 401 with a token, every 403, 429 and 503, with its reason. */
    private readonly log: Logger = silentLogger,
  ) {
    this.verifier = settings.proxy ?? new TokenVerifier(settings, fetchFn);
    const published = metadataUrl(settings.resource);
    this.metadataHref = published.href;
    this.metadataPaths = new Set([published.pathname, "/.well-known/oauth-protected-resource"]);
    this.scopesSupported = [...settings.requiredScopes];
  }

  /** Publishes the scopes the operations need (known once the tools are loaded) beside the required ones. */
  publishScopes(scopes: Iterable<string>): void {
    this.scopesSupported = [...new Set([...this.settings.requiredScopes, ...scopes])].sort();
  }

  /** The scopes this server publishes. */
  get scopesPublished(): readonly string[] {
    return this.scopesSupported;
  }

  /** Answers a request for this server's Protected Resource Metadata (or, in proxy mode, its authorization endpoints); false for any other. */
  answersSignIn(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.settings.proxy?.answers(req, res)) return true;
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (!this.metadataPaths.has(path) || (req.method !== "GET" && req.method !== "HEAD")) return false;
    const { resource, issuer } = this.settings;
    const { scopesSupported } = this;
    res.setHeader("access-control-allow-origin", "*");
    res.setHeader("cache-control", "public, max-age=300");
    sendJson(res, 200, {
      resource: resource.href,
      authorization_servers: [issuerName(issuer)],
      scopes_supported: scopesSupported,
      bearer_methods_supported: ["header"],
    });
    return true;
  }

  /** The signed-in caller of an MCP request, or undefined once a 401 (or 503) has answered it. */
  async admit(req: IncomingMessage, res: ServerResponse): Promise<SignedInCaller | undefined> {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) {
      this.refuse(res, 401, this.challenge({}), "sign in: this server takes a bearer token from its authorization server", undefined, true);
      return undefined;
    }
    try {
      const found = await this.verifier.verify(token, openRequestScope()?.caller);
      const caller: SignedInCaller = { ...found, token, challenge: (scopes) => this.challenge({ scopes }) };
      // A token seen for the first time is a sign-in (in proxy mode the token endpoint writes it, with the provider's word).
      if (found.fresh && !this.settings.proxy)
        audit(this.log, { event: "sign-in", mode: "resource", user: found.subject, ...namedCaller(found) });
      const missing = this.settings.requiredScopes.filter((scope) => !found.scopes.has(scope));
      if (missing.length > 0) {
        this.refuseScope(res, caller, missing);
        return undefined;
      }
      return caller;
    } catch (error) {
      if (error instanceof TooManyNewTokens) {
        res.setHeader("retry-after", String(error.retryAfterSeconds));
        this.refuse(res, 429, undefined, error.message);
        return undefined;
      }
      if (error instanceof SignInUnavailable) {
        this.refuse(res, 503, undefined, "the authorization server cannot be reached; try again shortly");
        return undefined;
      }
      const reason = error instanceof InvalidToken ? error.message : "the token cannot be checked";
      const who = error instanceof InvalidToken ? error.who : undefined;
      this.refuse(res, 401, this.challenge({ error: "invalid_token", description: reason }), reason, who);
      return undefined;
    }
  }

  /** 403 for a call the caller's token does not grant: the scopes it has and those it needs, for a step-up sign-in. */
  refuseScope(res: ServerResponse, caller: SignedInCaller, missing: readonly string[]): void {
    const description = `this call needs the scope${missing.length === 1 ? "" : "s"} ${missing.join(" ")}`;
    this.refuse(
      res,
      403,
      this.challenge({ error: "insufficient_scope", description, scopes: [...caller.scopes, ...missing] }),
      description,
      caller,
    );
  }

  /**
   * A `WWW-Authenticate: Bearer …` value: the metadata's URL, the error and its description when given, and the scopes
   * to ask for: those given (a step-up), else every scope this server publishes. A client signing in asks for what the
   * challenge names (MCP's scope selection), so at the first sign-in a user gets every scope the authorization server
   * allows them, and a writer sees the tools that write.
   */
  private challenge(parts: { error?: string; description?: string; scopes?: readonly string[] }): string {
    const scopes = [...new Set(parts.scopes ?? this.scopesSupported)];
    const params = [
      ...(parts.error ? [`error="${parts.error}"`] : []),
      ...(parts.description ? [`error_description="${quoted(parts.description)}"`] : []),
      ...(scopes.length > 0 ? [`scope="${quoted(scopes.join(" "))}"`] : []),
      `resource_metadata="${this.metadataHref}"`,
    ];
    return `Bearer ${params.join(", ")}`;
  }

  /** Answers a refusal, and logs it unless `quiet` (a request without a token is how every client starts signing in). */
  private refuse(
    res: ServerResponse,
    status: number,
    challenge: string | undefined,
    message: string,
    caller?: { subject: string; client?: string },
    quiet = false,
  ): void {
    if (!quiet) audit(this.log, { event: "refused", status, reason: message, ...namedCaller(caller) });
    if (challenge) res.setHeader("www-authenticate", challenge);
    sendJson(res, status, { jsonrpc: "2.0", error: { code: -32001, message }, id: null });
  }
}

/** The token of an `Authorization: Bearer …` header (scheme case-insensitive), or undefined. */
function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? "");
  return match?.[1];
}

/** Text for a quoted-string: no quote, backslash or control character. */
function quoted(text: string): string {
  return text.replace(/["\\\u0000-\u001f\u007f]/g, "");
}
