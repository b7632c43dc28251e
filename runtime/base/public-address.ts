import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** IPv6 ranges ipaddr.js calls "unicast" that must still be refused: IPv4-compatible, and AWS metadata (kept explicit). */
const REFUSED_IPV6 = ["::/96", "fd00:ec2::/32"].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** A host as URLs spell it (lower-case, punycode, IPv6 compressed in hex, no brackets), or undefined when invalid. */
export function canonicalHost(host: string): string | undefined {
  return URL.canParse(`http://${host}`) ? new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, "") : undefined;
}

/** An IP address, IPv6 in canonical form (so `::1.2.3.4` reads as `::102:304`) and IPv4-mapped as IPv4. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  const family = isIP(bare);
  if (family === 4) return ipaddr.IPv4.parse(bare);
  const canonical = family === 6 ? canonicalHost(`[${bare}]`) : undefined;
  return canonical === undefined ? undefined : ipaddr.process(canonical);
}

/** True unless an IP address is public unicast, outside every range that embeds, translates to or tunnels IPv4. */
export function isRefusedAddress(address: string): boolean {
  try {
    const ip = parseAddress(address);
    if (ip === undefined || ip.range() !== "unicast") return true;
    return ip instanceof ipaddr.IPv6 && REFUSED_IPV6.some((range) => ip.match(range));
  } catch {
    return true;
  }
}

/**
 * A DNS lookup that fails with `refusal` unless `allowed` takes every address the host resolves to: the check happens
 * inside the lookup a connection uses, so a second resolution cannot swap in another address.
 */
export function checkedLookup(
  allowed: (hostname: string, address: string) => boolean,
  refusal: (hostname: string, address: string) => Error,
): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const blocked = addresses.find((entry) => !allowed(hostname, entry.address));
      if (blocked) return callback(refusal(hostname, blocked.address), "", 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(refusal(hostname, "no address"), "", 0);
      callback(null, first.address, first.family);
    });
  };
}
