import { isLoopbackAddress } from "../http/origin.js";
import { readSealingKey } from "./proxy/sealed.js";

/** How callers sign in, as the environment says. */
export interface SignInEnvironment {
  mode?: "passthrough" | "resource" | "proxy";
  issuer?: URL;
  /** `AUTH_RESOURCE`: this server's canonical URI; else `PUBLIC_URL` + `mcp`. */
  resource?: URL;
  requiredScopes: string[];
  listAllTools: boolean;
  client?: { id: string; secret: string };
  /** `AUTH_UPSTREAM`: `server` (the server-held credential or `UPSTREAM_AUTHORIZATION`) or `exchange` (RFC 8693). */
  upstream: "server" | "exchange";
  /** `AUTH_EXCHANGE_AUDIENCE`: the audience asked for in a token exchange; else the upstream's origin. */
  exchangeAudience?: string;
  /** `AUTH_INTROSPECTION_CACHE_SECONDS`: how long an introspected token's answer is kept (0: asked at every request). */
  introspectionCacheMs: number;
  /** `AUTH_REQUIRE_AT_JWT=on`: JWT access tokens must be typed `at+jwt` (RFC 9068). */
  requireAtJwt: boolean;
  /** `AUTH_STATE_URL`: the PostgreSQL database replicas share sign-in state in; unset, each replica's memory. */
  stateUrl?: string;
  /** Proxy mode: the provider behind this server and the keys its tokens are sealed with. */
  proxy: ProxyEnvironment;
}

/** What proxy mode reads: `AUTH_KEY`, `AUTH_PREVIOUS_KEY`, `AUTH_PROVIDER_*`, `AUTH_CLIENT_METADATA_HOSTS`. */
export interface ProxyEnvironment {
  key?: Uint8Array;
  previousKey?: Uint8Array;
  authorizationUrl?: URL;
  tokenUrl?: URL;
  /** Unset: the registry's (the config's `auth.provider`), else none. */
  scopes?: string[];
  clientAuth?: "basic" | "post";
  /** `host:port` entries whose Client ID Metadata Documents may be fetched on a private address. */
  clientMetadataHosts: string[];
}

/** The sign-in settings of the environment: `AUTH_MODE`, `AUTH_ISSUER`, `AUTH_SCOPES`, …; undefined when none is set. */
export function readSignInEnvironment(
  env: NodeJS.ProcessEnv,
  publicUrl: URL | undefined,
  problems: string[],
): SignInEnvironment | undefined {
  const text = (name: string) => env[name]?.trim() || undefined;
  const mode = text("AUTH_MODE");
  if (mode !== undefined && mode !== "passthrough" && mode !== "resource" && mode !== "proxy") {
    problems.push(`AUTH_MODE: "${mode}" must be passthrough, resource or proxy`);
  }
  const issuer = authUrl(text("AUTH_ISSUER"), "AUTH_ISSUER", problems);
  const resource = authUrl(text("AUTH_RESOURCE"), "AUTH_RESOURCE", problems) ?? (publicUrl ? canonicalUri(publicUrl) : undefined);
  const id = text("AUTH_CLIENT_ID");
  const secret = text("AUTH_CLIENT_SECRET");
  if ((id === undefined) !== (secret === undefined)) problems.push("AUTH_CLIENT_ID and AUTH_CLIENT_SECRET go together");
  const upstream = text("AUTH_UPSTREAM") ?? "server";
  if (upstream !== "server" && upstream !== "exchange") problems.push(`AUTH_UPSTREAM: "${upstream}" must be server or exchange`);
  if (upstream === "exchange" && id === undefined) problems.push("AUTH_UPSTREAM=exchange needs AUTH_CLIENT_ID and AUTH_CLIENT_SECRET");
  const listAll = text("AUTH_LIST_ALL_TOOLS") ?? "off";
  if (listAll !== "on" && listAll !== "off") problems.push(`AUTH_LIST_ALL_TOOLS: "${listAll}" must be on or off`);
  const exchangeAudience = text("AUTH_EXCHANGE_AUDIENCE");
  const cacheSeconds = text("AUTH_INTROSPECTION_CACHE_SECONDS") ?? "0";
  if (!/^\d{1,3}$/.test(cacheSeconds) || Number(cacheSeconds) > 300)
    problems.push(`AUTH_INTROSPECTION_CACHE_SECONDS: "${cacheSeconds}" must be a whole number of seconds from 0 to 300`);
  const stateUrl = text("AUTH_STATE_URL");
  if (stateUrl !== undefined && !/^postgres(ql)?:\/\//i.test(stateUrl))
    problems.push("AUTH_STATE_URL: must be a postgres:// URL (the database replicas share sign-in state in)");
  const atJwt = text("AUTH_REQUIRE_AT_JWT") ?? "off";
  if (atJwt !== "on" && atJwt !== "off") problems.push(`AUTH_REQUIRE_AT_JWT: "${atJwt}" must be on or off`);
  const requiredScopes = listOf(text("AUTH_SCOPES"));
  const proxy = readProxyEnvironment(text, problems);
  const anything = mode ?? issuer ?? id ?? text("AUTH_SCOPES") ?? text("AUTH_UPSTREAM") ?? text("AUTH_KEY") ?? stateUrl;
  if (anything === undefined) return undefined;
  return {
    ...(mode === "passthrough" || mode === "resource" || mode === "proxy" ? { mode } : {}),
    ...(issuer ? { issuer } : {}),
    ...(resource ? { resource } : {}),
    requiredScopes,
    listAllTools: listAll === "on",
    ...(id !== undefined && secret !== undefined ? { client: { id, secret } } : {}),
    upstream: upstream === "exchange" ? "exchange" : "server",
    ...(exchangeAudience ? { exchangeAudience } : {}),
    introspectionCacheMs: /^\d{1,3}$/.test(cacheSeconds) ? Math.min(300, Number(cacheSeconds)) * 1000 : 0,
    requireAtJwt: atJwt === "on",
    ...(stateUrl !== undefined ? { stateUrl } : {}),
    proxy,
  };
}

/** Proxy mode's variables, each checked; what is required is checked once the mode is known. */
function readProxyEnvironment(text: (name: string) => string | undefined, problems: string[]): ProxyEnvironment {
  const key = (name: string) => {
    const value = text(name);
    if (value === undefined) return undefined;
    const bytes = readSealingKey(value);
    if (!bytes) problems.push(`${name}: must be 32 random bytes in base64 or hex (openssl rand -base64 32)`);
    return bytes;
  };
  const current = key("AUTH_KEY");
  const previous = key("AUTH_PREVIOUS_KEY");
  const authorizationUrl = authUrl(text("AUTH_PROVIDER_AUTHORIZATION_URL"), "AUTH_PROVIDER_AUTHORIZATION_URL", problems);
  const tokenUrl = authUrl(text("AUTH_PROVIDER_TOKEN_URL"), "AUTH_PROVIDER_TOKEN_URL", problems);
  const clientAuth = text("AUTH_PROVIDER_CLIENT_AUTH");
  if (clientAuth !== undefined && clientAuth !== "basic" && clientAuth !== "post")
    problems.push(`AUTH_PROVIDER_CLIENT_AUTH: "${clientAuth}" must be basic or post`);
  const scopes = text("AUTH_PROVIDER_SCOPES");
  const hosts = listOf(text("AUTH_CLIENT_METADATA_HOSTS"));
  for (const host of hosts)
    if (!/^(\[[0-9a-f:.]+\]|[^\s:/[\]]+):\d{1,5}$/i.test(host)) problems.push(`AUTH_CLIENT_METADATA_HOSTS: "${host}" must be HOST:PORT`);
  return {
    ...(current ? { key: current } : {}),
    ...(previous ? { previousKey: previous } : {}),
    ...(authorizationUrl ? { authorizationUrl } : {}),
    ...(tokenUrl ? { tokenUrl } : {}),
    ...(scopes !== undefined ? { scopes: listOf(scopes) } : {}),
    ...(clientAuth === "basic" || clientAuth === "post" ? { clientAuth } : {}),
    clientMetadataHosts: hosts.map((host) => host.toLowerCase().replace(/^\[|\](?=:)/g, "")),
  };
}

/** The entries of a list variable, separated by commas or spaces. */
function listOf(text: string | undefined): string[] {
  return (text ?? "").split(/[\s,]+/).filter(Boolean);
}

/** Whether sign-in may run over a URL: https, or http on loopback (for tests and local servers). */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackAddress(url.hostname.replace(/^\[|\]$/g, "")));
}

/** The MCP server's canonical URI from where clients reach it: `PUBLIC_URL` with `mcp` appended to its path. */
export function canonicalUri(publicUrl: URL): URL {
  const base = new URL(publicUrl.href);
  base.search = "";
  base.hash = "";
  if (base.pathname.replace(/\/+$/, "").endsWith("/mcp")) return new URL(base.href.replace(/\/+$/, ""));
  if (!base.pathname.endsWith("/")) base.pathname += "/";
  return new URL("mcp", base);
}

/** An https URL (http only on loopback, for tests and local servers); the registry's provider endpoints are held to it too. */
export function authUrl(value: string | undefined, name: string, problems: string[]): URL | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (isSecureUrl(url)) return url;
  } catch {}
  problems.push(`${name}: "${value}" must be an https URL (http only on loopback)`);
  return undefined;
}
