import { isIP } from "node:net";
import { canonicalHost, isRefusedAddress } from "oapi-mcp-gen-runtime/address";

export { isRefusedAddress };

/** Per lower-cased host name or IP literal (IPv6 without brackets), the ports the operator allows it on. */
export type AllowedHosts = ReadonlyMap<string, ReadonlySet<number> | "any port">;

/** Which network destinations a document URL may reach. */
export interface AddressPolicy {
  /** Hosts the operator allows, on the given ports, even when they resolve to a refused range. */
  allowedHosts: AllowedHosts;
  /** Allow loopback, private, link-local and metadata addresses altogether. */
  allowPrivate: boolean;
}

/** One allowed host entry: the host and the ports it may be contacted on. */
export interface AllowedHost {
  host: string;
  ports: readonly number[];
}

/** The ports a bare host (no `:port`) is allowed on: http's and https's defaults. */
const DEFAULT_PORTS = [80, 443] as const;

/** `host`, `host:port` or `[ipv6]:port`. */
const HOST_PORT = /^(?:\[(?<ipv6>[^\]]+)\]|(?<name>[^\s:/?#@[\]\\%]+))(?::(?<port>\d{1,5}))?$/;

/** `host`, `host:port` or `[v6]:port` (a bare IPv6 literal too) → the host and its ports; throws on malformed text. */
export function parseAllowedHost(text: string): AllowedHost {
  const { ipv6, name, port } = (isIP(text) === 6 ? { ipv6: text } : HOST_PORT.exec(text)?.groups) ?? {};
  const host = ipv6 !== undefined ? (isIP(ipv6) === 6 ? canonicalHost(`[${ipv6}]`) : undefined) : name && canonicalHost(name);
  const number = port === undefined ? undefined : Number(port);
  if (!host || (number !== undefined && (number < 1 || number > 65535)))
    throw new Error(`expected HOST or HOST:PORT (IPv6 as [::1]:8080), not "${text}"`);
  return { host, ports: number === undefined ? DEFAULT_PORTS : [number] };
}

/** Whether a host entry names its port (`host:port`, `[v6]:port`); a bare IPv6 literal does not. */
function namesPort(text: string): boolean {
  return isIP(text) !== 6 && HOST_PORT.exec(text)?.groups?.port !== undefined;
}

/**
 * Allowed host entries (`host`, `host:port`, `[v6]:port`) as the policy's per-host ports. A bare host allows ports 80
 * and 443, or any port when `bareHost` says so.
 */
export function allowedHostsFrom(entries: Iterable<string>, bareHost: "web ports" | "any port" = "web ports"): AllowedHosts {
  const hosts = new Map<string, Set<number> | "any port">();
  for (const entry of entries) {
    const { host, ports } = parseAllowedHost(entry);
    const known = hosts.get(host);
    if (known === "any port" || (bareHost === "any port" && !namesPort(entry))) hosts.set(host, "any port");
    else hosts.set(host, new Set([...(known ?? []), ...ports]));
  }
  return hosts;
}

/** The port a URL connects to: its own, else 443 for https and 80 for http. */
export function urlPort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/** Whether a host (name or IP literal, lower-cased, IPv6 without brackets) is allowed on a port. */
export function hostAllowed(hosts: AllowedHosts, host: string, port: number): boolean {
  const ports = hosts.get(host);
  return ports === "any port" || ports?.has(port) === true;
}

/** Whether a resolved address may be contacted on a port for a given host name under the policy. */
export function mayConnect(hostname: string, address: string, port: number, policy: AddressPolicy): boolean {
  if (policy.allowPrivate) return true;
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return hostAllowed(policy.allowedHosts, host, port) || hostAllowed(policy.allowedHosts, address, port) || !isRefusedAddress(address);
}
