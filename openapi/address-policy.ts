import { BlockList, isIP } from "node:net";

/** Which network destinations a document URL may reach. */
export interface AddressPolicy {
  /** Host names (lower-case) or IP literals the operator allows even when they resolve to a refused range. */
  allowedHosts: ReadonlySet<string>;
  /** Allow loopback, private, link-local and metadata addresses altogether. */
  allowPrivate: boolean;
}

/** Loopback, private, link-local, carrier-grade NAT, metadata and other non-public ranges, IPv4 and IPv6. */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["fd00:ec2::", 32],
] as const) {
  REFUSED.addSubnet(network, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (`::ffff:127.0.0.1`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (match) return match[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1] as string, 16);
  const low = Number.parseInt(hex[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** True when an IP address lies in a non-public range. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 4) return REFUSED.check(bare, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    return v4 !== undefined ? REFUSED.check(v4, "ipv4") : REFUSED.check(bare, "ipv6");
  }
  return true;
}

/** Whether a resolved address may be contacted for a given host name under the policy. */
export function mayConnect(hostname: string, address: string, policy: AddressPolicy): boolean {
  if (policy.allowPrivate) return true;
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (policy.allowedHosts.has(host) || policy.allowedHosts.has(address)) return true;
  return !isRefusedAddress(address);
}
