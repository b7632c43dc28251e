import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  type AddressPolicy,
  allowedHostsFrom,
  FetchError,
  fetchText,
  isRefusedAddress,
  mayConnect,
  parseAllowedHost,
} from "../../../openapi/fetch/index.js";
import { parseSearchArguments } from "../../../search/command.js";

const policy = (...allow: string[]): AddressPolicy => ({ allowedHosts: allowedHostsFrom(allow), allowPrivate: false });

describe("address classification", () => {
  it.each([
    ["NAT64 64:ff9b::/96", "64:ff9b::7f00:1"],
    ["NAT64 64:ff9b::/96, dotted", "64:ff9b::127.0.0.1"],
    ["NAT64 of a public address", "64:ff9b::5db8:d822"],
    ["local-use NAT64 64:ff9b:1::/48", "64:ff9b:1::7f00:1"],
    ["RFC 6145 ::ffff:0:0:0/96", "::ffff:0:7f00:1"],
    ["IPv4-compatible, dotted", "::127.0.0.1"],
    ["IPv4-compatible, hex", "::7f00:1"],
    ["IPv4-compatible of a public address", "::8.8.8.8"],
    ["IPv4-compatible, bracketed", "[::127.0.0.1]"],
    ["6to4 2002::/16", "2002:7f00:1::"],
    ["6to4 of a public address", "2002:5db8:d822::1"],
    ["Teredo 2001::/32", "2001::1"],
    ["Teredo with a server address", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped metadata, hex", "::ffff:a9fe:a9fe"],
    ["documentation 2001:db8::/32", "2001:db8::1"],
    ["discard 100::/64", "100::1"],
    ["site-local fec0::/10", "fec0::1"],
    ["unique local", "fd12:3456::1"],
    ["AWS metadata", "fd00:ec2::254"],
    ["link-local with a zone", "fe80::1%eth0"],
    ["loopback", "::1"],
    ["unspecified", "::"],
    ["multicast", "ff02::1"],
  ])("refuses %s (%s)", (_, address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each([
    "0.1.2.3",
    "10.1.2.3",
    "100.64.0.1",
    "127.0.0.1",
    "169.254.169.254",
    "172.16.0.1",
    "192.0.0.8",
    "192.168.1.1",
    "198.18.0.1",
    "198.19.255.255",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
  ])("refuses the IPv4 special address %s", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(["", "localhost", "127.1", "0x7f.0.0.1", "1.2.3.4.5", "::g", "[::1", "example.com"])("refuses the unparsable %j", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "2606:2800:220:1::1", "[2606:2800:220:1::1]", "::ffff:93.184.216.34", "8.8.8.8"])(
    "allows the public %s",
    (address) => {
      expect(isRefusedAddress(address)).toBe(false);
    },
  );
});

describe("allowed hosts", () => {
  it.each<[string, { host: string; ports: readonly number[] }]>([
    ["localhost", { host: "localhost", ports: [80, 443] }],
    ["LocalHost:8080", { host: "localhost", ports: [8080] }],
    ["10.0.0.5:443", { host: "10.0.0.5", ports: [443] }],
    ["[::1]:8080", { host: "::1", ports: [8080] }],
    ["[0:0:0:0:0:0:0:1]", { host: "::1", ports: [80, 443] }],
    ["::1", { host: "::1", ports: [80, 443] }],
    ["bücher.example", { host: "xn--bcher-kva.example", ports: [80, 443] }],
  ])("parses %s", (text, expected) => {
    expect(parseAllowedHost(text)).toEqual(expected);
  });

  it.each([
    "",
    ":8080",
    "host:",
    "host:0",
    "host:65536",
    "host:http",
    "host:80:81",
    "[::1",
    "[]:80",
    "[localhost]:80",
    "a b",
    "a/b",
    "user@host",
  ])("rejects %j", (text) => {
    expect(() => parseAllowedHost(text)).toThrow(/expected HOST or HOST:PORT/);
  });

  it("rejects a malformed --allow-host as a one-line CLI error", () => {
    expect(() => parseSearchArguments(["--allow-host", "localhost:99999"])).toThrow(
      /option '--allow-host <host\[:port\]>' argument 'localhost:99999' is invalid\. expected HOST or HOST:PORT/,
    );
    expect(() => parseSearchArguments(["--allow-host", ":8080"])).toThrow(/is invalid/);
    expect(parseSearchArguments(["--allow-host", "localhost:8080", "--allow-host", "[::1]:9"]).allowHost).toEqual([
      "localhost:8080",
      "[::1]:9",
    ]);
  });

  it("allows a host:port on that port only", () => {
    const allowed = policy("localhost:8080");
    expect(mayConnect("localhost", "127.0.0.1", 8080, allowed)).toBe(true);
    expect(mayConnect("localhost", "127.0.0.1", 8081, allowed)).toBe(false);
    expect(mayConnect("localhost", "127.0.0.1", 80, allowed)).toBe(false);
    expect(mayConnect("other", "127.0.0.1", 8080, allowed)).toBe(false);
  });

  it("allows a bare host on 80 and 443 only", () => {
    const allowed = policy("LOCALHOST");
    expect(mayConnect("localhost", "127.0.0.1", 80, allowed)).toBe(true);
    expect(mayConnect("localhost", "127.0.0.1", 443, allowed)).toBe(true);
    expect(mayConnect("localhost", "127.0.0.1", 8080, allowed)).toBe(false);
  });

  it("merges entries for one host and matches IPv6 literals without brackets", () => {
    const allowed = policy("[::1]:8080", "[::1]:9090", "10.0.0.5");
    expect(allowed.allowedHosts.get("::1")).toEqual(new Set([8080, 9090]));
    expect(mayConnect("[::1]", "::1", 9090, allowed)).toBe(true);
    expect(mayConnect("internal.example", "10.0.0.5", 443, allowed)).toBe(true);
    expect(mayConnect("internal.example", "10.0.0.5", 8443, allowed)).toBe(false);
  });

  it("lets public addresses through and everything through with allowPrivate", () => {
    expect(mayConnect("example.com", "93.184.216.34", 8443, policy())).toBe(true);
    expect(mayConnect("x", "64:ff9b::7f00:1", 80, { allowedHosts: new Map(), allowPrivate: true })).toBe(true);
  });
});

describe("fetchText", () => {
  it("refuses IPv6 literals embedding a loopback IPv4 before connecting", async () => {
    let requests = 0;
    const server = createServer((_, res) => {
      requests++;
      res.end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const target of [`http://[64:ff9b::7f00:1]:${port}/x`, `http://[::ffff:0:7f00:1]:${port}/`]) {
        const attempt = fetchText(new URL(target), policy(), { maxBytes: 1000, timeoutMs: 2000, maxRedirects: 0 });
        await expect(attempt, target).rejects.toBeInstanceOf(FetchError);
        await expect(attempt, target).rejects.toThrow(
          /^refused to fetch from \[[0-9a-f:]+\] \([0-9a-f:]+\): loopback, private, link-local and metadata addresses are blocked/,
        );
      }
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
