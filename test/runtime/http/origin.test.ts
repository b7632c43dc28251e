import { describe, expect, it } from "vitest";
import { checkHost, checkOrigin, isLoopbackAddress } from "../../../runtime/http/origin.js";

const allowed = new Set(["https://app.example.com", "http://localhost:5173"]);

describe("Origin check", () => {
  it.each<[string | undefined, string | undefined, boolean]>([
    [undefined, "127.0.0.1:3000", true],
    ["http://127.0.0.1:3000", "127.0.0.1:3000", true],
    ["HTTP://127.0.0.1:3000", "127.0.0.1:3000", true],
    ["http://127.0.0.1:3001", "127.0.0.1:3000", false],
    ["https://app.example.com", "mcp.example.com", true],
    ["https://APP.example.com:443", "mcp.example.com", true],
    ["https://app.example.com:8443", "mcp.example.com", false],
    ["http://localhost:5173", "127.0.0.1:3000", true],
    ["http://evil.example", "127.0.0.1:3000", false],
    ["null", "127.0.0.1:3000", false],
    ["not a url", "127.0.0.1:3000", false],
    ["file:///etc/passwd", "127.0.0.1:3000", false],
    ["http://[::1]:3000", "[::1]:3000", true],
    ["http://evil.example", undefined, false],
  ])("Origin %s with Host %s → %s", (origin, host, ok) => {
    expect(checkOrigin(origin, host, allowed).ok).toBe(ok);
  });
});

describe("Host check (DNS-rebinding protection on loopback)", () => {
  it.each<[string | undefined, boolean]>([
    ["127.0.0.1:3000", true],
    ["localhost:3000", true],
    ["LOCALHOST", true],
    ["[::1]:3000", true],
    ["mcp.example.com", true],
    ["evil.example:3000", false],
    [undefined, false],
    ["a b", false],
  ])("Host %s → %s", (host, ok) => {
    expect(checkHost(host, new Set(["mcp.example.com"])).ok).toBe(ok);
  });

  it("knows loopback bind addresses", () => {
    expect(["127.0.0.1", "127.1.2.3", "::1", "localhost"].every(isLoopbackAddress)).toBe(true);
    expect(["0.0.0.0", "::", "10.0.0.1"].some(isLoopbackAddress)).toBe(false);
  });
});
