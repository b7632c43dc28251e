import { lookup } from "node:dns/promises";

/** Why a request was refused before it reached MCP handling. */
export type RequestGuardResult = { ok: true } | { ok: false; reason: string };

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Normalises an origin (`HTTP://Example.com:80` → `http://example.com`); undefined when malformed. */
export function normalizeOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * The Origin rule of MCP Streamable HTTP: no `Origin` passes (desktop clients omit it); an origin whose host is the
 * request's own `Host`, or one on the allow-list, passes; anything else (including `null`) is refused.
 * @see https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
 */
export function checkOrigin(origin: string | undefined, host: string | undefined, allowedOrigins: ReadonlySet<string>): RequestGuardResult {
  if (origin === undefined) return { ok: true };
  const normalized = normalizeOrigin(origin.trim());
  if (normalized === undefined) return { ok: false, reason: "Origin not allowed" };
  if (allowedOrigins.has(normalized)) return { ok: true };
  if (host !== undefined && sameHost(new URL(normalized), host)) return { ok: true };
  return { ok: false, reason: "Origin not allowed" };
}

/** When bound to loopback, only loopback names (and configured hosts) may appear in `Host`: no DNS rebinding. */
export function checkHost(host: string | undefined, allowedHosts: ReadonlySet<string>): RequestGuardResult {
  if (host === undefined) return { ok: false, reason: "Host header required" };
  const hostname = hostnameOf(host);
  if (hostname !== undefined && (LOOPBACK_HOSTNAMES.has(hostname) || allowedHosts.has(hostname))) return { ok: true };
  return { ok: false, reason: "Host not allowed" };
}

/**
 * The `Host` names `/mcp` accepts (DNS-rebinding protection), or undefined when any is: with a public URL, its host
 * (plus loopback names) whatever the bind address; bound to loopback however spelt (`127.1`, `localhost`), loopback
 * names only; bound to every interface without a public URL, no check (the names clients use are unknown).
 */
export async function hostAllowList(bindHost: string, publicUrl: URL | undefined): Promise<ReadonlySet<string> | undefined> {
  if (publicUrl) return new Set([publicUrl.hostname.toLowerCase()]);
  return (await bindsLoopback(bindHost)) ? new Set() : undefined;
}

/** True when a bind address, however spelt (`127.1`, `localhost`, `[::1]`), is loopback only. */
export async function bindsLoopback(bindHost: string): Promise<boolean> {
  const addresses = await lookup(bindHost.replace(/^\[|\]$/g, ""), { all: true }).catch(() => []);
  return addresses.length > 0 && addresses.every((entry) => isLoopbackAddress(entry.address));
}

/** True when an address is a loopback interface address. */
export function isLoopbackAddress(address: string): boolean {
  return address === "localhost" || address === "::1" || address === "[::1]" || /^(::ffff:)?127(\.\d{1,3}){3}$/i.test(address);
}

function sameHost(origin: URL, hostHeader: string): boolean {
  try {
    const request = new URL(`${origin.protocol}//${hostHeader.trim()}`);
    return request.host === origin.host;
  } catch {
    return false;
  }
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host.trim()}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
