import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchUpstream } from "../../../runtime/call/upstream.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

const options = { credentials: { authorization: "Bearer secret" }, timeoutMs: 2_000, maxResponseBytes: 1_000 };

describe("fetch executor", () => {
  let api: Awaited<ReturnType<typeof startUpstream>>;
  let elsewhere: Awaited<ReturnType<typeof startUpstream>>;

  beforeAll(async () => {
    elsewhere = await startUpstream((_, res) => sendJson(res, 200, { elsewhere: true }));
    api = await startUpstream((request, res) => {
      if (request.path === "/same") return res.writeHead(302, { location: "/final" }).end();
      if (request.path === "/away") return res.writeHead(307, { location: new URL("/x", elsewhere.url).href }).end();
      if (request.path === "/loop") return res.writeHead(302, { location: "/loop" }).end();
      if (request.path === "/see-other") return res.writeHead(303, { location: "/final" }).end();
      if (request.path === "/big") return sendJson(res, 200, { data: "x".repeat(5_000) });
      if (request.path === "/gzip-bomb") {
        // 64 MiB of spaces in 64 KiB: small by its Content-Length, large once inflated.
        const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 32));
        return res
          .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": bomb.length })
          .end(bomb);
      }
      if (request.path === "/gzip-small") {
        const small = gzipSync(JSON.stringify({ small: true }));
        return res
          .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", "content-length": small.length })
          .end(small);
      }
      if (request.path === "/trickle") {
        // Headers at once, then a body that never ends: the call's timeout covers its reading too.
        res.writeHead(200, { "content-type": "application/json" });
        return void res.write('{"a":');
      }
      if (request.path === "/chunked-big") {
        res.writeHead(200, { "content-type": "application/json" });
        for (let i = 0; i < 50; i++) res.write("x".repeat(100));
        return res.end();
      }
      sendJson(res, 200, { path: request.path });
    });
  });
  afterAll(async () => {
    await api.close();
    await elsewhere.close();
  });

  const request = (path: string, method = "GET", body?: string) => ({
    method,
    url: new URL(path, api.url),
    headers: { accept: "application/json", cookie: "c=1" },
    ...(body ? { body } : {}),
  });

  it("follows a same-origin redirect with the credentials", async () => {
    const outcome = await fetchUpstream(request("/same"), options);
    expect(outcome).toMatchObject({ kind: "response", status: 200 });
    expect(api.requests.at(-1)).toMatchObject({ path: "/final" });
    expect(api.requests.at(-1)?.headers.authorization).toBe("Bearer secret");
  });

  it("drops Authorization and cookies on a redirect to another origin", async () => {
    const outcome = await fetchUpstream(request("/away"), options);
    expect(outcome).toMatchObject({ kind: "response", status: 200 });
    expect(elsewhere.requests).toHaveLength(1);
    expect(elsewhere.requests[0]?.headers.authorization).toBeUndefined();
    expect(elsewhere.requests[0]?.headers.cookie).toBeUndefined();
  });

  it("turns a 303 after POST into a GET without body", async () => {
    await fetchUpstream(request("/see-other", "POST", '{"a":1}'), options);
    expect(api.requests.at(-1)).toMatchObject({ method: "GET", path: "/final", body: "" });
  });

  it("stops after five redirects", async () => {
    expect(await fetchUpstream(request("/loop"), options)).toEqual({ kind: "redirect", detail: "more than 5 redirects" });
  });

  it("caps the response size by Content-Length and while streaming", async () => {
    expect(await fetchUpstream(request("/big"), options)).toEqual({ kind: "too-large", limitBytes: 1_000 });
    expect(await fetchUpstream(request("/chunked-big"), options)).toEqual({ kind: "too-large", limitBytes: 1_000 });
  });

  it("caps a compressed body by what it inflates to, not by its Content-Length", async () => {
    // The compressed body (about 64 KiB) is under the cap; what it inflates to is a thousand times over.
    const capped = { ...options, maxResponseBytes: 100_000 };
    expect(await fetchUpstream(request("/gzip-bomb"), capped)).toEqual({ kind: "too-large", limitBytes: 100_000 });
    const small = await fetchUpstream(request("/gzip-small"), options);
    expect(small.kind === "response" && JSON.parse(small.body.toString("utf8"))).toEqual({ small: true });
  });

  it("times out while the answer's body is still being read, on either client, and the next call is answered", async () => {
    for (const fetchOption of [{}, { fetch }]) {
      const started = Date.now();
      const outcome = await fetchUpstream(
        { method: "GET", url: new URL("/trickle", api.url), headers: {} },
        { ...options, timeoutMs: 300, ...fetchOption },
      );
      expect(outcome).toEqual({ kind: "timeout", timeoutMs: 300 });
      expect(Date.now() - started).toBeLessThan(2_000);
      const next = await fetchUpstream({ method: "GET", url: new URL("/ok", api.url), headers: {} }, { ...options, ...fetchOption });
      expect(next).toMatchObject({ kind: "response", status: 200 });
    }
  });
});
