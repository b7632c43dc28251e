import { isIPv4, isIPv6 } from "node:net";

/**
 * The address group a client belongs to for session fairness: an IPv4 address, or an IPv6 /64 (what one subscriber
 * or one host commonly holds: a flood from one /64 is one client). IPv4-mapped IPv6 addresses are their IPv4.
 */
export function clientGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIPv4(address) || !isIPv6(address)) return address;
  return `${expandIPv6(address.split("%")[0] ?? address)
    .slice(0, 4)
    .join(":")}::/64`;
}

/** The eight groups of an IPv6 address, each as four lower-case hex digits (an embedded IPv4 tail is two of them). */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const fill = Array.from({ length: Math.max(0, 8 - left.length - right.length) }, () => "0");
  return [...left, ...fill, ...right].map((group) => group.padStart(4, "0"));
}
