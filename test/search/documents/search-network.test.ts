import { chmod, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { isRefusedAddress } from "../../../openapi/fetch/index.js";
import { callTool, connectClient, MEMOS, MUSEUM, startSearch } from "../../helpers/search-server.js";

/** A document server on 127.0.0.1 serving JSON and YAML with and without content types, and redirects. */
async function startDocumentServer() {
  const museumYaml = await readFile(MUSEUM, "utf8");
  const memosJson = JSON.stringify((await import("yaml")).parse(await readFile(MEMOS, "utf8")));
  const routes: Record<string, { status?: number; type?: string; body?: string; location?: string }> = {
    "/museum.yaml": { type: "application/yaml", body: museumYaml },
    "/museum-no-type": { body: museumYaml },
    "/museum-wrong-type": { type: "application/octet-stream", body: museumYaml },
    "/memos.json": { type: "application/json", body: memosJson },
    "/memos-no-type": { body: memosJson },
    "/redirect": { status: 302, location: "/museum.yaml" },
    "/redirect-chain": { status: 301, location: "/redirect" },
    "/to-loopback": { status: 302, location: "" },
    "/to-ipv6-loopback": { status: 302, location: "http://[::1]:9/x.yaml" },
    "/to-private": { status: 307, location: "http://10.0.0.1/x.yaml" },
    "/to-metadata": { status: 302, location: "http://169.254.169.254/latest/meta-data/" },
    "/loop": { status: 302, location: "/loop" },
    "/not-openapi": { type: "application/json", body: JSON.stringify({ hello: "world" }) },
    "/huge": { type: "application/json", body: JSON.stringify({ openapi: "3.0.0", pad: "x".repeat(3_000_000) }) },
    "/broken": { type: "application/yaml", body: "openapi: 3.0.0\ninfo: [unclosed\n" },
  };
  const server: Server = createServer((req, res) => {
    const route = routes[req.url ?? ""];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string> = {};
    if (route.type) headers["content-type"] = route.type;
    if (route.location !== undefined) headers.location = route.location || `http://127.0.0.1:${port}/museum.yaml`;
    res.writeHead(route.status ?? 200, headers);
    res.end(route.body ?? "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("loading documents over HTTP", () => {
  let docs: Awaited<ReturnType<typeof startDocumentServer>>;
  beforeAll(async () => {
    docs = await startDocumentServer();
  });
  afterAll(async () => {
    await docs.close();
  });

  describe("with localhost allowed by the operator", () => {
    let server: Awaited<ReturnType<typeof startSearch>>;
    let client: Client;
    const url = (path: string) => `http://localhost:${docs.port}${path}`;
    beforeAll(async () => {
      server = await startSearch([
        "--memory",
        "--allow-host",
        `localhost:${docs.port}`,
        "--max-document-bytes",
        "2000000",
        "--fetch-timeout-ms",
        "3000",
      ]);
      client = await connectClient(server.url);
    });
    afterAll(async () => {
      await client.close();
      await server.close();
    });

    it.each(["/museum.yaml", "/museum-no-type", "/museum-wrong-type", "/memos.json", "/memos-no-type", "/redirect", "/redirect-chain"])(
      "loads %s (JSON or YAML by content type, then extension, then sniffing; redirects followed)",
      async (path) => {
        const result = await callTool(client, "load_openapi", { name: "doc", url: url(path) });
        expect(result.isError, result.text).toBe(false);
        expect(result.structured.paths_count).toBeGreaterThan(0);
      },
    );

    it.each<[string, RegExp]>([
      ["/to-loopback", /refused to fetch from 127\.0\.0\.1/],
      ["/to-ipv6-loopback", /refused to fetch from \[::1\]/],
      ["/to-private", /refused to fetch from 10\.0\.0\.1/],
      ["/to-metadata", /refused to fetch from 169\.254\.169\.254/],
      ["/loop", /too many redirects/],
      ["/not-openapi", /not an OpenAPI document/],
      ["/huge", /larger than the 2000000-byte limit/],
      ["/broken", /invalid YAML/],
      ["/missing", /HTTP 404/],
    ])("refuses %s with a clear message", async (path, message) => {
      const result = await callTool(client, "load_openapi", { name: "bad", url: url(path) });
      expect(result.isError).toBe(true);
      expect(result.structured.message).toMatch(message);
    });

    it("refuses non-http schemes", async () => {
      for (const target of ["ftp://localhost/x.yaml", "gopher://localhost/"]) {
        expect((await callTool(client, "load_openapi", { name: "x", url: target })).structured.message).toMatch(/only http and https/);
      }
    });
  });

  describe("by default (no exceptions)", () => {
    it("refuses a host name that resolves to loopback and loopback literals, before connecting", async () => {
      const server = await startSearch(["--memory"]);
      const client = await connectClient(server.url);
      try {
        for (const target of [
          `http://localhost:${docs.port}/museum.yaml`,
          `http://127.0.0.1:${docs.port}/museum.yaml`,
          `http://[::1]:${docs.port}/x`,
        ]) {
          const result = await callTool(client, "load_openapi", { name: "x", url: target });
          expect(result.structured.message, target).toMatch(
            /refused to fetch from .*blocked; the operator can allow them with --allow-host or --allow-private/,
          );
        }
      } finally {
        await client.close();
        await server.close();
      }
    });

    it("allows private addresses only with --allow-private", async () => {
      const server = await startSearch(["--memory", "--allow-private"]);
      const client = await connectClient(server.url);
      try {
        const loaded = await callTool(client, "load_openapi", { name: "m", url: `http://127.0.0.1:${docs.port}/to-loopback` });
        expect(loaded.isError, loaded.text).toBe(false);
      } finally {
        await client.close();
        await server.close();
      }
    });
  });

  it("classifies addresses", () => {
    for (const address of [
      "127.0.0.1",
      "127.8.9.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fd00:ec2::254",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
    ]) {
      expect(isRefusedAddress(address), address).toBe(true);
    }
    for (const address of ["8.8.8.8", "140.82.112.3", "2606:4700::1111", "::ffff:8.8.8.8"])
      expect(isRefusedAddress(address), address).toBe(false);
  });
});

describe("persistence", () => {
  it("keeps loaded documents across a restart, and forgets them with --memory", async () => {
    const store = await mkdtemp(join(tmpdir(), "oapi-search-store-"));
    try {
      const first = await startSearch(["--store", store, "--load", `museum=${MUSEUM}`]);
      await first.close();
      const second = await startSearch(["--store", store]);
      const client = await connectClient(second.url);
      const { structured } = await callTool(client, "list_apis");
      expect(structured).toMatchObject({ count: 1, apis: [{ name: "museum", title: "Redocly Museum API" }] });
      expect((await callTool(client, "search_endpoints", { name: "museum", keyword: "tickets" })).structured.total).toBeGreaterThan(0);
      await client.close();
      await second.close();
      const memory = await startSearch(["--memory"]);
      expect(await memory.catalogue.listings()).toEqual([]);
      await memory.close();
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  });

  it("forgets an unloaded document: gone from the folder, not restored, and an unknown name is refused", async () => {
    const store = await mkdtemp(join(tmpdir(), "oapi-search-store-"));
    try {
      const first = await startSearch(["--store", store, "--load", `museum=${MUSEUM}`]);
      const client = await connectClient(first.url);
      expect((await callTool(client, "unload_api", { name: "museum" })).structured).toMatchObject({ status: "success" });
      expect((await callTool(client, "unload_api", { name: "museum" })).text).toMatch(/API 'museum' not found\. No APIs are loaded/);
      expect(await readdir(store)).toEqual([]);
      await client.close();
      await first.close();
      const second = await startSearch(["--store", store]);
      await second.catalogue.ready;
      expect(second.catalogue.size).toBe(0);
      await second.close();
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  });

  it("keeps the store private: its folder 0700 and its files 0600, older open entries made so", async () => {
    const parent = await mkdtemp(join(tmpdir(), "oapi-search-store-"));
    const store = join(parent, "db");
    try {
      const first = await startSearch(["--store", store, "--load", `museum=${MUSEUM}`]);
      await first.close();
      const mode = async (path: string) => (await stat(path)).mode & 0o777;
      expect(await mode(store)).toBe(0o700);
      expect(await mode(join(store, "museum.json"))).toBe(0o600);
      await chmod(join(store, "museum.json"), 0o644);
      await chmod(store, 0o755);
      const second = await startSearch(["--store", store]);
      // The store is read in the background after start: wait for it.
      const client = await connectClient(second.url);
      for (let tries = 0; tries < 50 && (await callTool(client, "list_apis")).structured.count !== 1; tries++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await client.close();
      await second.close();
      expect([await mode(store), await mode(join(store, "museum.json"))]).toEqual([0o700, 0o600]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it("writes a YAML document the store can read back as the same API", async () => {
    const store = await mkdtemp(join(tmpdir(), "oapi-search-store-"));
    const file = join(store, "tiny.yaml");
    try {
      await (await import("node:fs/promises")).writeFile(
        file,
        stringify({
          openapi: "3.1.0",
          info: { title: "Tiny", version: "1" },
          paths: { "/a": { get: { operationId: "getA", responses: { 200: { description: "ok" } } } } },
        }),
      );
      const first = await startSearch(["--store", join(store, "db"), "--load", `tiny=${file}`]);
      await first.close();
      const second = await startSearch(["--store", join(store, "db")]);
      await second.catalogue.ready;
      expect((await second.catalogue.get("tiny")).byOperationId.has("getA")).toBe(true);
      await second.close();
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  });
});
