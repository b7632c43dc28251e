import { describe, expect, it } from "vitest";
import type { HttpBinding } from "../runtime/tool.js";
import { ArgumentError, buildUpstreamRequest, stripPrefix } from "../runtime/upstream-request.js";

const binding: HttpBinding = {
  method: "GET",
  path: "/items/{id}/parts/{part}",
  parameters: [
    { argument: "id", name: "id", in: "path", required: true, prefixes: ["items/"] },
    { argument: "part", name: "part", in: "path", required: true },
    { argument: "tags", name: "tags", in: "query", required: false },
    { argument: "filter", name: "filter", in: "query", required: false },
    { argument: "X-Trace", name: "X-Trace", in: "header", required: false },
    { argument: "session", name: "session", in: "cookie", required: false },
  ],
  emptyResponse: false,
};
const base = new URL("https://api.example.com/v2/");

describe("upstream request building", () => {
  it("substitutes encoded path values under the base path and encodes the query", () => {
    const request = buildUpstreamRequest(binding, { id: "items/a b", part: "p/1", tags: ["x", "y&z"], filter: { a: 1, b: true } }, base);
    expect(request.url.href).toBe("https://api.example.com/v2/items/a%20b/parts/p%2F1?tags=x&tags=y%26z&a=1&b=true");
    expect(request.method).toBe("GET");
    expect(request.body).toBeUndefined();
  });

  it.each(["..", ".", "%2e%2e"])("refuses the dot segment %s instead of leaving the template", (value) => {
    if (value === "%2e%2e") {
      expect(buildUpstreamRequest(binding, { id: value, part: "p" }, base).url.pathname).toBe("/v2/items/%252e%252e/parts/p");
    } else {
      expect(() => buildUpstreamRequest(binding, { id: value, part: "p" }, base)).toThrow(ArgumentError);
    }
  });

  it.each(["https://evil.example/x", "//evil.example", "?admin=1", "#frag", "a\\b", "\r\nHost: x"])(
    "keeps host and path for %j",
    (value) => {
      const request = buildUpstreamRequest(binding, { id: value, part: "p" }, base);
      expect(request.url.origin).toBe("https://api.example.com");
      expect(request.url.pathname).toMatch(/^\/v2\/items\/[^/]+\/parts\/p$/);
      expect(request.url.search).toBe("");
    },
  );

  it("refuses empty path values and header values with line breaks", () => {
    expect(() => buildUpstreamRequest(binding, { id: "items/", part: "p" }, base)).not.toThrow();
    expect(() => buildUpstreamRequest(binding, { id: "", part: "p" }, base)).toThrow(/must not be empty/);
    expect(() => buildUpstreamRequest(binding, { id: "a", part: "p", "X-Trace": "a\r\nb: c" }, base)).toThrow(/line breaks/);
  });

  it("sends header and cookie parameters", () => {
    const request = buildUpstreamRequest(binding, { id: "a", part: "p", "X-Trace": "t1", session: "s;1" }, base);
    expect(request.headers).toMatchObject({ "x-trace": "t1", cookie: "session=s%3B1", accept: "application/json" });
  });

  it("sends a JSON body with the documented media type", () => {
    const post: HttpBinding = {
      method: "POST",
      path: "/things",
      parameters: [],
      bodyMediaType: "application/merge-patch+json",
      emptyResponse: false,
    };
    const request = buildUpstreamRequest(post, { body: { a: [1] } }, new URL("http://127.0.0.1:9"));
    expect(request.body).toBe('{"a":[1]}');
    expect(request.headers["content-type"]).toBe("application/merge-patch+json");
    expect(request.url.href).toBe("http://127.0.0.1:9/things");
  });

  it.each<[string, string[], string]>([
    ["memos/abc", ["memos/"], "abc"],
    ["abc", ["memos/"], "abc"],
    ["memos/", ["memos/"], "memos/"],
    ["memos/a1/reactions/r1", ["memos/*/reactions/"], "r1"],
    ["memos/a1/comments/r1", ["memos/*/reactions/"], "memos/a1/comments/r1"],
    ["x.y/abc", ["x.y/"], "abc"],
    ["xzy/abc", ["x.y/"], "xzy/abc"],
  ])("strips %s with %j → %s", (value, prefixes, expected) => {
    expect(stripPrefix(value, prefixes)).toBe(expected);
  });
});
