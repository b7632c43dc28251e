import { createHash } from "node:crypto";
import { EnvironmentError } from "../base/environment-error.js";
import { ExpiringCache } from "../base/expiring-cache.js";
import type { Logger } from "../base/logger.js";
import type { AuthDefinition, SignedInAuthorization } from "../call/credentials.js";
import type { ReadinessCheck } from "../http/readiness.js";
import type { ToolRuntime } from "../tools/tool-runtime-contract.js";
import { scopesOf } from "../tools/tool-scopes.js";
import type { SignInGuard, SignInSettings } from "./guard.js";
import { OAuthProxy, type ProxySettings } from "./proxy/oauth-proxy.js";
import { SealingKeys } from "./proxy/sealed.js";
import { authUrl, isSecureUrl, type SignInEnvironment } from "./sign-in-env.js";
import { MemorySignInState, type SignInState } from "./state/sign-in-state.js";
import { issuerName, TokenVerifier } from "./token-verifier.js";

/** What sign-in is set up from: the environment's settings, the registry's auth, and what the server knows of itself. */
export interface SignInSetup {
  /** `AUTH_*` as the environment gives them; undefined when none is set. */
  given: SignInEnvironment | undefined;
  /** The generated registry's auth (its `mode`, its provider). */
  auth?: AuthDefinition;
  serverName: string;
  apiBaseUrl: URL;
  /** False when the upstream URL came from the document alone. */
  upstreamConfigured?: boolean;
  /** Injected for tests; the global `fetch` otherwise. */
  fetch?: typeof fetch;
  /** Injected for tests: certificate authorities the proxy trusts for Client ID Metadata Documents. */
  trustedCa?: string;
  /** Injected for tests. @default 5000 */
  clientMetadataTimeoutMs?: number;
  /** Proxy mode's state shared by replicas (`openSignInState`). @default this replica's memory */
  state?: SignInState;
}

/** Sign-in as set up: the guard's settings, and in proxy mode the authorization server it answers as. */
export interface SignInSet {
  settings: SignInSettings;
  proxy?: OAuthProxy;
}

/**
 * Sign-in settings: `AUTH_MODE` (else the config's `auth.mode`) and what it needs; undefined in passthrough. A resource
 * server needs its authorization server (`AUTH_ISSUER`) and its own canonical URI (`PUBLIC_URL`); a proxy, its URI, its
 * key and the provider's app.
 */
export function signInFor(setup: SignInSetup, log: Logger, scopesPublished: () => readonly string[]): SignInSet | undefined {
  const { given, auth } = setup;
  const mode = given?.mode ?? auth?.mode ?? "passthrough";
  if (mode === "passthrough") return undefined;
  const resource = given?.resource;
  if (mode === "proxy") {
    const proxy = new OAuthProxy(proxySettings(setup, resource), log, scopesPublished, setup.fetch);
    const settings = { issuer: proxy.place.issuer, resource: proxy.place.resource, requiredScopes: given?.requiredScopes ?? [] };
    return { settings: { ...settings, listAllTools: given?.listAllTools ?? false, proxy }, proxy };
  }
  const problems = [
    ...(given?.issuer ? [] : ["AUTH_ISSUER is required in resource mode (the authorization server whose tokens this server takes)"]),
    ...(resource ? [] : ["PUBLIC_URL (or AUTH_RESOURCE) is required in resource mode: tokens must be meant for this server's URL"]),
    ...(resource && !isSecureUrl(resource)
      ? ["PUBLIC_URL must be https in resource mode (http only on loopback): every request's bearer token crosses it"]
      : []),
  ];
  if (!given?.issuer || !resource || problems.length > 0) throw new EnvironmentError(problems.join("\n"));
  return {
    settings: {
      issuer: given.issuer,
      resource,
      requiredScopes: given.requiredScopes,
      listAllTools: given.listAllTools,
      introspectionCacheMs: given.introspectionCacheMs,
      requireAtJwt: given.requireAtJwt,
      ...(given.client ? { client: given.client } : {}),
      ...(given.upstream === "exchange" ? { exchangeAudience: given.exchangeAudience ?? setup.apiBaseUrl.origin } : {}),
    },
  };
}

/**
 * Proxy mode's settings: `PUBLIC_URL`, `AUTH_KEY`, the operator's app (`AUTH_CLIENT_ID`, `AUTH_CLIENT_SECRET`) and the
 * provider's endpoints (`AUTH_PROVIDER_*`, else the document's oauth2 authorization-code flow).
 */
function proxySettings(setup: SignInSetup, resource: URL | undefined): ProxySettings {
  const { given } = setup;
  const registered = setup.auth?.provider;
  const problems: string[] = [];
  const authorizationUrl =
    given?.proxy.authorizationUrl ??
    (registered ? authUrl(registered.authorizationUrl, "auth.provider.authorizationUrl", problems) : undefined);
  const tokenUrl = given?.proxy.tokenUrl ?? (registered ? authUrl(registered.tokenUrl, "auth.provider.tokenUrl", problems) : undefined);
  const clearText = resource !== undefined && !isSecureUrl(resource);
  problems.push(
    ...(resource ? [] : ["PUBLIC_URL (or AUTH_RESOURCE) is required in proxy mode: it is where users and clients reach this server"]),
    ...(clearText ? ["PUBLIC_URL must be https in proxy mode (http only on loopback): sign-in pages, codes and tokens cross it"] : []),
    ...(setup.upstreamConfigured === false
      ? [
          "API_BASE_URL is required in proxy mode: users' provider tokens go only to an upstream the operator names, never to one the document alone names",
        ]
      : []),
    ...(given?.proxy.key ? [] : ["AUTH_KEY is required in proxy mode: 32 random bytes that seal its tokens (openssl rand -base64 32)"]),
    ...(given?.client
      ? []
      : ["AUTH_CLIENT_ID and AUTH_CLIENT_SECRET are required in proxy mode: the app registered with the API's sign-in"]),
    ...((authorizationUrl && tokenUrl) || registered
      ? []
      : [
          "AUTH_PROVIDER_AUTHORIZATION_URL and AUTH_PROVIDER_TOKEN_URL are required in proxy mode (neither the config's auth.provider nor the document's oauth2 flows name them)",
        ]),
  );
  if (problems.length > 0 || !resource || !given?.proxy.key || !given.client || !authorizationUrl || !tokenUrl)
    throw new EnvironmentError(problems.join("\n"));
  const { proxy } = given;
  return {
    resource,
    serverName: setup.serverName,
    provider: {
      authorizationUrl,
      tokenUrl,
      client: given.client,
      scopes: proxy.scopes ?? registered?.scopes ?? [],
      clientAuth: proxy.clientAuth ?? registered?.clientAuth ?? "basic",
    },
    keys: new SealingKeys(resource, given.proxy.key, proxy.previousKey),
    clientMetadata: {
      allowedHosts: new Set(proxy.clientMetadataHosts),
      timeoutMs: setup.clientMetadataTimeoutMs ?? 5_000,
      maxBytes: 5_120,
      ...(setup.trustedCa ? { ca: setup.trustedCa } : {}),
    },
    ...(setup.state ? { state: setup.state } : {}),
  };
}

/** The sign-in state `AUTH_STATE_URL` names (PostgreSQL, shared by replicas), else this replica's memory. */
export async function openSignInState(url: string | undefined, log: Logger): Promise<SignInState> {
  if (url === undefined) return new MemorySignInState();
  const { PostgresSignInState } = await import("./state/postgres-state.js");
  return PostgresSignInState.open(url, log);
}

/** Every scope the operations' security requirements and scope rules name (published as `scopes_supported`). */
export function scopesNamed(runtime: ToolRuntime): string[] {
  return [...runtime.tools.values()].flatMap((tool) => scopesOf(tool, runtime.auth));
}

/**
 * What a signed-in caller's calls send upstream in place of its MCP token: a token exchanged for it (RFC 8693, cached
 * per token until it expires), or the operator's `UPSTREAM_AUTHORIZATION` (server-held credentials apply besides).
 */
export function upstreamForSignedIn(guard: SignInGuard, upstreamAuthorization: string | undefined, log: Logger): SignedInAuthorization {
  const audience = guard.settings.exchangeAudience;
  const { verifier } = guard;
  if (audience === undefined || !(verifier instanceof TokenVerifier)) return async () => upstreamAuthorization;
  const exchanged = new ExpiringCache<{ token: string; expiresAt: number }>(10_000);
  return async (caller) => {
    const key = createHash("sha256").update(caller.token).digest("base64url");
    const cached = exchanged.get(key);
    if (cached) return `Bearer ${cached.token}`;
    const fresh = await verifier.exchange(caller.token, audience);
    exchanged.set(key, { token: fresh.token, expiresAt: Math.min(fresh.expiresAt, caller.expiresAt) });
    log.info("exchanged a token for the upstream", { user: caller.subject });
    return `Bearer ${fresh.token}`;
  };
}

/** The start-up lines of sign-in: where callers sign in, and a warning where resource mode sends no upstream credential. */
export function tellSignIn(
  signIn: SignInSet,
  guard: SignInGuard,
  runtime: ToolRuntime,
  given: { exchange: boolean; upstreamAuthorization: string | undefined; state?: string | undefined },
  log: Logger,
): void {
  if (signIn.proxy) {
    const { place } = signIn.proxy;
    const state = given.state ?? "memory";
    log.info("MCP callers sign in through this server (proxy mode); register this callback URL with the provider", {
      issuer: place.issuerName,
      callback: place.callback.href,
      provider: signIn.proxy.provider.origin,
      state,
    });
    if (state === "memory")
      log.info(
        "sign-in state (used codes, refresh-token rotations, revocations) is this replica's own and forgotten at a restart: more than one replica needs AUTH_STATE_URL",
        {},
      );
    return;
  }
  const { exchange, upstreamAuthorization } = given;
  log.info("MCP callers sign in (resource mode)", {
    issuer: issuerName(guard.settings.issuer),
    resource: guard.settings.resource.href,
    upstream: exchange ? "token exchange" : upstreamAuthorization ? "UPSTREAM_AUTHORIZATION" : "server-held credentials",
  });
  if (!exchange && upstreamAuthorization === undefined && runtime.credentials.configured().length === 0) {
    log.warn(
      "resource mode with no upstream credential: signed-in callers' calls reach the upstream without one (set UPSTREAM_AUTHORIZATION, a scheme's variables, or AUTH_UPSTREAM=exchange)",
      {},
    );
  }
}

/** What readiness asks of sign-in: the authorization server's metadata and keys (resource mode), the shared state. */
export function signInChecks(guard: SignInGuard | undefined, state: SignInState | undefined): ReadinessCheck[] {
  const { verifier } = guard ?? {};
  return [
    ...(verifier instanceof TokenVerifier ? [{ name: "authorization server", check: () => verifier.ready() }] : []),
    ...(state && state.location !== "memory" ? [{ name: "sign-in state", check: () => state.check() }] : []),
  ];
}
