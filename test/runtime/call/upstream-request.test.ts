import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBinding } from "../../../runtime/base/tool.js";
import { ArgumentError, buildUpstreamRequest, stripPrefix } from "../../../runtime/call/upstream-request.js";

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
  response: "json",
};
const base = new URL("https://api.example.com/v2/");
const post = (body: HttpBinding["body"], parameters: HttpBinding["parameters"] = []): HttpBinding => ({
  method: "POST",
  path: "/things",
  parameters,
  ...(body ? { body } : {}),
  response: "json",
});

describe("upstream request building", () => {
  it("substitutes encoded path values under the base path and encodes the query", async () => {
    const request = await buildUpstreamRequest(
      binding,
      { id: "items/a b", part: "p/1", tags: ["x", "y&z"], filter: { a: 1, b: true } },
      base,
    );
    expect(request.url.href).toBe("https://api.example.com/v2/items/a%20b/parts/p%2F1?tags=x&tags=y%26z&a=1&b=true");
    expect(request.method).toBe("GET");
    expect(request.body).toBeUndefined();
  });

  it("sends a query array of 200,000 values (a caller's 2 MB of arguments), more than a call's arguments may hold", async () => {
    const tags = Array.from({ length: 200_000 }, (_, index) => `t${index}`);
    const session = Object.fromEntries(tags.map((tag) => [tag, "1"]));
    const request = await buildUpstreamRequest(binding, { id: "a", part: "b", tags, session }, base);
    expect(request.url.searchParams.getAll("tags")).toHaveLength(200_000);
  });

  it.each([".", ".."])("refuses the dot segment %s instead of leaving the template", async (value) => {
    await expect(buildUpstreamRequest(binding, { id: value, part: "p" }, base)).rejects.toThrow(ArgumentError);
  });

  it("encodes an already-encoded dot segment instead of decoding it", async () => {
    expect((await buildUpstreamRequest(binding, { id: "%2e%2e", part: "p" }, base)).url.pathname).toBe("/v2/items/%252e%252e/parts/p");
  });

  it.each(["https://evil.example/x", "//evil.example", "?admin=1", "#frag", "a\\b", "\r\nHost: x"])(
    "keeps host and path for %j",
    async (value) => {
      const request = await buildUpstreamRequest(binding, { id: value, part: "p" }, base);
      expect(request.url.origin).toBe("https://api.example.com");
      expect(request.url.pathname).toMatch(/^\/v2\/items\/[^/]+\/parts\/p$/);
      expect(request.url.search).toBe("");
    },
  );

  it("refuses empty path values and header values with line breaks", async () => {
    await expect(buildUpstreamRequest(binding, { id: "items/", part: "p" }, base)).resolves.toBeDefined();
    await expect(buildUpstreamRequest(binding, { id: "", part: "p" }, base)).rejects.toThrow(/must not be empty/);
    await expect(buildUpstreamRequest(binding, { id: "a", part: "p", "X-Trace": "a\r\nb: c" }, base)).rejects.toThrow(/line breaks/);
  });

  it("refuses a header value outside Latin-1 or with a control character, naming the argument", async () => {
    await expect(buildUpstreamRequest(binding, { id: "a", part: "p", "X-Trace": "café" }, base)).resolves.toBeDefined();
    await expect(buildUpstreamRequest(binding, { id: "a", part: "p", "X-Trace": "日本" }, base)).rejects.toThrow(
      'header argument "X-Trace" must be Latin-1 text without control characters (it has U+65E5 at character 1)',
    );
    await expect(buildUpstreamRequest(binding, { id: "a", part: "p", "X-Trace": "a\u0007b" }, base)).rejects.toThrow(
      /U\+0007 at character 2/,
    );
  });

  it.each(["X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override", "X-Forwarded-Host", "X-Forwarded-For", "Forwarded"])(
    "never sets the routing header %s from an argument, as Host is not",
    async (name) => {
      const routed: HttpBinding = {
        ...binding,
        parameters: [...binding.parameters, { argument: name, name, in: "header", required: false }],
      };
      await expect(buildUpstreamRequest(routed, { id: "a", part: "p", [name]: "DELETE" }, base)).rejects.toThrow(
        `header "${name}" changes the request's method or route on common upstreams (the operation decides those)`,
      );
    },
  );

  it("sends header and cookie parameters", async () => {
    const request = await buildUpstreamRequest(binding, { id: "a", part: "p", "X-Trace": "t1", session: "s;1" }, base);
    expect(request.headers).toMatchObject({ "x-trace": "t1", cookie: "session=s%3B1", accept: "application/json, */*;q=0.5" });
  });

  it.each<[string, { style?: string; explode?: boolean }, unknown, string]>([
    ["form exploded array", {}, ["a", "b"], "q=a&q=b"],
    ["form array, explode false", { explode: false }, ["a", "b"], "q=a,b"],
    ["spaceDelimited", { style: "spaceDelimited", explode: false }, ["a", "b"], "q=a%20b"],
    ["pipeDelimited", { style: "pipeDelimited", explode: false }, ["a", "b"], "q=a%7Cb"],
    ["deepObject", { style: "deepObject" }, { color: "red", size: [1, 2] }, "q%5Bcolor%5D=red&q%5Bsize%5D%5B0%5D=1&q%5Bsize%5D%5B1%5D=2"],
    ["deepObject array", { style: "deepObject" }, ["a", "b"], "q%5B0%5D=a&q%5B1%5D=b"],
    ["form object, explode false", { explode: false }, { a: 1, b: 2 }, "q=a,1,b,2"],
  ])("serialises query style %s", async (_, style, value, expected) => {
    const http = post(undefined, [{ argument: "q", name: "q", in: "query", required: false, ...style }]);
    expect((await buildUpstreamRequest(http, { q: value }, base)).url.search).toBe(`?${expected}`);
  });

  it("sends a JSON body with the documented media type", async () => {
    const request = await buildUpstreamRequest(
      post({ mediaType: "application/merge-patch+json", kind: "json" }),
      { body: { a: [1] } },
      new URL("http://127.0.0.1:9"),
    );
    expect(request.body).toBe('{"a":[1]}');
    expect(request.headers["content-type"]).toBe("application/merge-patch+json");
    expect(request.url.href).toBe("http://127.0.0.1:9/things");
  });

  it("sends form bodies with per-property encoding", async () => {
    const body = {
      mediaType: "application/x-www-form-urlencoded",
      kind: "form" as const,
      encoding: { filter: { style: "deepObject" }, ids: { explode: false } },
    };
    const request = await buildUpstreamRequest(
      post(body),
      { body: { name: "a b", ids: [1, 2], filter: { x: "y" }, tags: ["t1", "t2"] } },
      base,
    );
    expect(request.body).toBe("name=a%20b&ids=1,2&filter%5Bx%5D=y&tags=t1&tags=t2");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
  });

  it("sends text and binary bodies", async () => {
    const text = await buildUpstreamRequest(post({ mediaType: "text/plain", kind: "text" }), { body: "hello" }, base);
    expect(text).toMatchObject({ body: "hello", headers: { "content-type": "text/plain" } });
    const binary = await buildUpstreamRequest(
      post({ mediaType: "application/octet-stream", kind: "binary" }),
      { body: { base64: "AAEC/w==" } },
      base,
    );
    expect([...(binary.body as Uint8Array)]).toEqual([0, 1, 2, 255]);
    expect(binary.headers["content-type"]).toBe("application/octet-stream");
    const wildcard = await buildUpstreamRequest(
      post({ mediaType: "image/*", kind: "binary" }),
      { body: { base64: "iVBO", contentType: "image/png" } },
      base,
    );
    expect(wildcard.headers["content-type"]).toBe("image/png");
    await expect(
      buildUpstreamRequest(post({ mediaType: "application/octet-stream", kind: "binary" }), { body: { base64: "not base64!" } }, base),
    ).rejects.toThrow(/not valid base64/);
  });

  describe("multipart with file parts", () => {
    let uploads: string;
    beforeAll(async () => {
      uploads = await mkdtemp(join(tmpdir(), "oapi-uploads-"));
      await writeFile(join(uploads, "note.txt"), "from disk");
      await symlink("/etc/hostname", join(uploads, "escape"));
    });
    afterAll(async () => {
      await rm(uploads, { recursive: true, force: true });
    });
    const multipart = post({ mediaType: "multipart/form-data", kind: "multipart", files: ["file", "extra"] });

    it("sends real file parts from base64 or an upload-folder path, and JSON for objects", async () => {
      const request = await buildUpstreamRequest(
        multipart,
        {
          body: {
            file: { base64: Buffer.from("hello").toString("base64"), filename: "h.txt", contentType: "text/plain" },
            extra: [{ path: "note.txt" }],
            meta: { a: 1 },
            title: "t",
          },
        },
        base,
        { uploadDir: uploads },
      );
      const form = await new Response(request.body as Uint8Array, {
        headers: { "content-type": request.headers["content-type"] ?? "" },
      }).formData();
      const file = form.get("file") as File;
      expect([file.name, file.type, await file.text()]).toEqual(["h.txt", "text/plain", "hello"]);
      expect(await (form.get("extra") as File).text()).toBe("from disk");
      expect(form.get("meta")).toBe('{"a":1}');
      expect(form.get("title")).toBe("t");
      expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=----oapi-mcp-gen-[0-9a-f]{24}$/);
    });

    it("refuses paths outside the upload folder, and paths when no folder is configured", async () => {
      for (const path of ["../../etc/passwd", "/etc/passwd", "escape"]) {
        await expect(buildUpstreamRequest(multipart, { body: { file: { path } } }, base, { uploadDir: uploads })).rejects.toThrow(
          /no such file under the upload folder/,
        );
      }
      await expect(buildUpstreamRequest(multipart, { body: { file: { path: "note.txt" } } }, base)).rejects.toThrow(
        /file paths are disabled/,
      );
    });
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
