import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchUpstream } from "../../../runtime/call/upstream.js";
import { startUpstream } from "../../helpers/upstream.js";

const options = { credentials: {}, timeoutMs: 2_000, maxResponseBytes: 10_000 };
const get = (url: string, method = "GET", body?: string) => ({
  method,
  url: new URL(url),
  headers: { accept: "application/json" },
  ...(body ? { body } : {}),
});
const json = (outcome: Awaited<ReturnType<typeof fetchUpstream>>) =>
  outcome.kind === "response" ? JSON.parse(outcome.body.toString("utf8")) : outcome;

describe("the runtime's upstream client (node:http, pooled)", () => {
  let api: Awaited<ReturnType<typeof startUpstream>>;
  const encoders = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

  beforeAll(async () => {
    api = await startUpstream((request, res) => {
      const encoding = request.path.slice(1) as keyof typeof encoders;
      if (request.path === "/empty-gzip") return res.writeHead(204, { "content-encoding": "gzip" }).end();
      if (request.path === "/echo") {
        return res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ headers: request.headers, rawHeaders: request.rawHeaders, body: request.body }));
      }
      const encode = encoders[encoding];
      const body = encode(Buffer.from(JSON.stringify({ encoding })));
      return res
        .writeHead(200, { "content-type": "application/json", "content-encoding": encoding, "content-length": body.length })
        .end(body);
    });
  });
  afterAll(() => api.close());

  it("inflates gzip, deflate and brotli answers, and an empty one naming an encoding is no error", async () => {
    for (const encoding of ["gzip", "deflate", "br"]) {
      expect(json(await fetchUpstream(get(new URL(`/${encoding}`, api.url).href), options))).toEqual({ encoding });
    }
    const empty = await fetchUpstream(get(new URL("/empty-gzip", api.url).href), options);
    expect(empty).toMatchObject({ kind: "response", status: 204, size: 0 });
  });

  it("sends a length, a user agent and the accepted encodings; a tool's own headers win", async () => {
    const echoed = json(await fetchUpstream(get(new URL("/echo", api.url).href, "POST", '{"a":1}'), options));
    expect(echoed.body).toBe('{"a":1}');
    expect(echoed.headers).toMatchObject({
      "content-length": "7",
      "user-agent": "oapi-mcp-gen-runtime",
      "accept-encoding": "gzip, deflate, br",
      accept: "application/json",
    });
    const odd = JSON.parse('{"accept":"application/json","__proto__":"kept"}') as Record<string, string>;
    const named = json(await fetchUpstream({ method: "GET", url: new URL("/echo", api.url), headers: odd }, options));
    expect(named.rawHeaders.join("\n")).toContain("__proto__\nkept");
    const form = new URLSearchParams({ q: "a b" });
    const sent = json(await fetchUpstream({ ...get(new URL("/echo", api.url).href, "POST"), body: form }, options));
    expect(sent.body).toBe("q=a+b");
    expect(sent.headers["content-type"]).toBe("application/x-www-form-urlencoded;charset=UTF-8");
    const multipart = new FormData();
    multipart.append("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    const uploaded = json(await fetchUpstream({ ...get(new URL("/echo", api.url).href, "POST"), body: multipart }, options));
    expect(uploaded.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(uploaded.body).toContain('filename="hello.txt"');
    expect(uploaded.body).toContain("hello");
  });
});

describe("a pooled connection the upstream closed", () => {
  let server: Server;
  let url: string;
  let connections = 0;

  beforeAll(async () => {
    // Answers the first request of each connection with keep-alive, then resets the connection on the second one: what
    // a server closing an idle connection looks like to a client that reuses it.
    server = createServer((socket) => {
      connections++;
      let received = "";
      let answered = 0;
      socket.on("data", (data) => {
        received += data.toString("latin1");
        while (received.includes("\r\n\r\n")) {
          received = received.slice(received.indexOf("\r\n\r\n") + 4);
          if (answered++ > 0) {
            socket.resetAndDestroy();
            return;
          }
          const body = JSON.stringify({ connection: connections });
          socket.write(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
          );
        }
      });
      socket.on("error", () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("is tried once more on a fresh one for an idempotent method, and reported for any other", async () => {
    const first = json(await fetchUpstream(get(url), options));
    const second = json(await fetchUpstream(get(url), options));
    expect(second.connection).toBeGreaterThan(first.connection);
    await fetchUpstream(get(url), options); // leaves a pooled connection behind for the POST to find
    const posted = await fetchUpstream(get(url, "POST", "{}"), options);
    expect(posted).toMatchObject({ kind: "unreachable" });
    expect(String((posted as { detail: string }).detail)).toMatch(/ECONNRESET|socket hang up/);
  });
});

describe("idle pooled connections", () => {
  it("are closed before the server's announced keep-alive timeout runs out, so a POST never meets a closed one", async () => {
    const sockets = new Set<unknown>();
    const server = createHttpServer((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    server.keepAliveTimeout = 2_000; // announced as `Keep-Alive: timeout=2`
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      expect(await fetchUpstream(get(url), options)).toMatchObject({ kind: "response", status: 200 });
      await new Promise((resolve) => setTimeout(resolve, 1_400)); // past the hint less a second, short of the server's 2 s
      expect(await fetchUpstream(get(url, "POST", "{}"), options)).toMatchObject({ kind: "response", status: 200 });
      expect(sockets.size).toBe(2);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
