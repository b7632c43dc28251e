import { once } from "node:events";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSearchProcess } from "../../../bench/search-process.js";
import { catalogueQuality, loadLabelledDocuments } from "../../../scripts/catalogue-quality.js";
import { startPostgres, type TemporaryPostgres } from "../../../scripts/postgres-server.js";
import { ROOT } from "../../../scripts/rank-quality.js";
import { migrate, PostgresCatalogue, withoutSecrets } from "../../../search/catalogue/postgres/index.js";
import { databaseUrl, parseSearchArguments, startSearchServer } from "../../../search/command.js";
import {
  callTool,
  connectClient,
  DOCKER,
  FIXTURES,
  fileRoots,
  MEMOS,
  MODERN_META,
  MUSEUM,
  modernToolCall,
  startSearch,
} from "../../helpers/search-server.js";

// A real PostgreSQL of the test's own (the server programs: see scripts/postgres-server.ts), on a free loopback port.
const ROOT_FOLDER = fileURLToPath(ROOT);
let server: TemporaryPostgres;
let databases = 0;
/** A fresh, empty database on the test server. */
const database = () => server.createDatabase(`catalogue_${++databases}`);

beforeAll(async () => {
  server = await startPostgres();
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

/** Runs SQL against a database, for what the tables hold. */
async function sql<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Two search-server processes (replicas) on one database, each with an SDK client. */
async function replicas(url: string, extra: string[] = []) {
  const args = ["--store", url, ...fileRoots(), ...extra];
  const [a, b] = await Promise.all([startSearchProcess(args), startSearchProcess(args)]);
  const [clientA, clientB] = await Promise.all([connectClient(a.url), connectClient(b.url)]);
  return {
    a: clientA,
    b: clientB,
    processes: [a, b],
    async stop() {
      await Promise.all([clientA.close(), clientB.close()]);
      a.stop();
      b.stop();
    },
  };
}

const found = async (client: Client, keyword: string) =>
  ((await callTool(client, "search_endpoints", { keyword, limit: 5 })).structured.results as { api: string; operationId: string }[]) ?? [];

/** Waits up to `ms` for `read` to give a value `done` accepts, and gives the last value read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A database function and trigger that end the connection inserting into a table, as a restart or failover would. */
const HANG_UP = `CREATE FUNCTION hang_up() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$;
  CREATE TRIGGER hang_up BEFORE INSERT ON oapi_terms FOR EACH STATEMENT EXECUTE FUNCTION hang_up();`;

describe("the catalogue on PostgreSQL, served by two replicas", () => {
  it("a document loaded through one is searchable and readable through the other at once; replace and unload are seen by both", async () => {
    const url = await database();
    const { a, b, stop } = await replicas(url);
    try {
      expect((await callTool(a, "load_openapi", { name: "shop", url: MEMOS })).isError).toBe(false);
      expect((await found(b, "create a memo"))[0]).toMatchObject({ api: "shop", operationId: "MemoService_CreateMemo" });
      const read = await callTool(b, "get_operation_by_id", { name: "shop", operation_id: "MemoService_CreateMemo" });
      expect(read.isError, read.text).toBe(false);
      expect((await callTool(b, "list_apis")).structured.apis).toMatchObject([{ name: "shop", operations_count: 73 }]);

      // Replaced through B: A's next answers are the new document's, its cached copy of the old one unused.
      const replaced = await callTool(b, "load_openapi", { name: "shop", url: DOCKER });
      expect(replaced.structured).toMatchObject({ replaced: true });
      expect((await found(a, "create a memo")).map((hit) => hit.operationId)).not.toContain("MemoService_CreateMemo");
      expect((await callTool(a, "get_operation_by_id", { name: "shop", operation_id: "ContainerCreate" })).isError).toBe(false);
      expect((await callTool(a, "get_operation_by_id", { name: "shop", operation_id: "MemoService_CreateMemo" })).text).toMatch(
        /not found in API 'shop'/,
      );
      expect((await callTool(a, "list_apis")).structured.apis).toMatchObject([{ name: "shop", title: "Docker Engine API" }]);

      // Unloaded through A: gone for B, and no row of it is left.
      expect((await callTool(a, "unload_api", { name: "shop" })).isError).toBe(false);
      expect((await callTool(b, "list_apis")).structured.apis).toEqual([]);
      expect(await found(b, "create a container")).toEqual([]);
      expect((await callTool(b, "get_operation_by_id", { name: "shop", operation_id: "ContainerCreate" })).text).toMatch(
        /API 'shop' not found/,
      );
      const left = await sql<{ apis: number; operations: number; words: number; terms: number }>(
        url,
        "SELECT (SELECT count(*) FROM oapi_apis)::int AS apis, (SELECT count(*) FROM oapi_operations)::int AS operations, (SELECT count(*) FROM oapi_words)::int AS words, (SELECT count(*) FROM oapi_terms)::int AS terms",
      );
      expect(left).toEqual([{ apis: 0, operations: 0, words: 0, terms: 0 }]);
      expect((await callTool(b, "unload_api", { name: "shop" })).text).toMatch(/API 'shop' not found/);
    } finally {
      await stop();
    }
  });

  it("two replicas loading the same name at once end with one consistent document", async () => {
    const url = await database();
    const { a, b, stop } = await replicas(url);
    try {
      for (let round = 0; round < 3; round++) {
        const [first, second] = await Promise.all([
          callTool(a, "load_openapi", { name: "same", url: MEMOS }),
          callTool(b, "load_openapi", { name: "same", url: DOCKER }),
        ]);
        expect(first.isError, first.text).toBe(false);
        expect(second.isError, second.text).toBe(false);
        const [row] = await sql<{ title: string; listed: number; operations: number; generations: number }>(
          url,
          `SELECT listing->>'title' AS title, (listing->>'operations_count')::int AS listed,
             (SELECT count(*) FROM oapi_operations WHERE api = 'same')::int AS operations,
             (SELECT count(*) FROM oapi_apis)::int AS generations
           FROM oapi_apis WHERE name = 'same'`,
        );
        expect(row?.generations).toBe(1);
        expect(row?.operations).toBe(row?.listed);
        // Both replicas read the one document there is.
        const titles = await Promise.all(
          [a, b].map(async (client) => ((await callTool(client, "list_apis")).structured.apis as { title: string }[])[0]?.title),
        );
        expect(titles).toEqual([row?.title, row?.title]);
        const id = row?.title === "" ? "MemoService_CreateMemo" : "ContainerCreate";
        for (const client of [a, b]) {
          expect((await callTool(client, "get_operation_by_id", { name: "same", operation_id: id })).isError).toBe(false);
        }
      }
    } finally {
      await stop();
    }
  });

  it("a load that fails while it is written leaves the stored document whole", async () => {
    const url = await database();
    const { a, b, stop } = await replicas(url);
    try {
      expect((await callTool(a, "load_openapi", { name: "kept", url: MEMOS })).isError).toBe(false);
      const before = await sql(url, "SELECT generation, (SELECT count(*) FROM oapi_operations)::int AS operations FROM oapi_apis");
      // The database refuses the last part of the next write (its terms), after the old rows were deleted in it.
      await sql(
        url,
        `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
         CREATE TRIGGER refuse BEFORE INSERT ON oapi_terms FOR EACH ROW EXECUTE FUNCTION refuse();`,
      );
      const failed = await callTool(b, "load_openapi", { name: "kept", url: DOCKER });
      expect(failed.isError).toBe(true);
      // The caller is told in plain words, never the database's own message (that is logged).
      expect(failed.text).toMatch(
        /Failed to load 'kept': the catalogue's database could not store it.*The previously loaded 'kept' is kept/,
      );
      expect(failed.text).not.toMatch(/refused by the test/);
      expect(await sql(url, "SELECT generation, (SELECT count(*) FROM oapi_operations)::int AS operations FROM oapi_apis")).toEqual(before);
      expect((await found(a, "create a memo"))[0]?.operationId).toBe("MemoService_CreateMemo");
    } finally {
      await stop();
    }
  });

  it("the 2026-07-28 era is served by any replica, request by request", async () => {
    const url = await database();
    const { processes, stop } = await replicas(url);
    const modern = (target: URL, name: string, args: Record<string, unknown>) =>
      modernToolCall(
        target,
        name,
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(name)},${MODERN_META},"arguments":${JSON.stringify(args)}}}`,
      );
    try {
      const [a, b] = processes.map((process) => process.url);
      if (!a || !b) throw new Error("two replicas");
      expect(await modern(a, "load_openapi", { name: "museum", url: MUSEUM })).toMatch(/"status":"success"/);
      expect(await modern(b, "search_endpoints", { keyword: "buy museum tickets" })).toMatch(/"operationId":"buyMuseumTickets"/);
      expect(await modern(a, "get_operation_by_id", { name: "museum", operation_id: "buyMuseumTickets" })).toMatch(/"path":"\/tickets"/);
      expect(await modern(b, "unload_api", { name: "museum" })).toMatch(/unloaded/);
      expect(await modern(a, "list_apis", {})).toMatch(/"apis":\[\]/);
    } finally {
      await stop();
    }
  });

  it("the catalogue's budgets hold across replicas", async () => {
    const url = await database();
    const { a, b, stop } = await replicas(url, ["--max-apis", "1"]);
    try {
      const [first, second] = await Promise.all([
        callTool(a, "load_openapi", { name: "one", url: MEMOS }),
        callTool(b, "load_openapi", { name: "two", url: MUSEUM }),
      ]);
      expect([first.isError, second.isError].sort()).toEqual([false, true]);
      expect((first.isError ? first : second).text).toMatch(/holds at most 1 documents/);
      expect(await sql(url, "SELECT count(*)::int AS count FROM oapi_apis")).toEqual([{ count: 1 }]);
    } finally {
      await stop();
    }
  });
});

describe("catalogue-wide search in PostgreSQL", () => {
  it("ranks the labelled queries as well as the in-process catalogue, and corrects typos", async () => {
    const url = await database();
    const quality = async (store: string[]) => {
      const search = await startSearch([...store, "--max-document-bytes", String(64 * 2 ** 20), "--files-root", ROOT_FOLDER]);
      const client = await connectClient(search.url);
      try {
        await loadLabelledDocuments(client);
        const typo = await found(client, "creat contaner");
        return { ...(await catalogueQuality(client)), typo: typo[0] };
      } finally {
        await client.close();
        await search.close();
      }
    };
    const memory = await quality(["--memory"]);
    const postgres = await quality(["--store", url]);
    expect(postgres.typo).toMatchObject({ api: "docker", operationId: "ContainerCreate" });
    expect(memory.typo).toMatchObject({ api: "docker", operationId: "ContainerCreate" });
    // Within two queries of 145 at rank 1 and at rank 5 (measured: equal at both).
    expect(postgres.hitAt1).toBeGreaterThanOrEqual(memory.hitAt1 - 2 / memory.queries);
    expect(postgres.hitAt5).toBeGreaterThanOrEqual(memory.hitAt5 - 2 / memory.queries);
    expect(postgres.hitAt5).toBeGreaterThan(0.9);
  }, 180_000);
});

describe("a replica of the PostgreSQL catalogue", () => {
  it("loads nothing when it starts, and keeps only the documents it reads, within its cache", async () => {
    const url = await database();
    // A document of 600 KB: with the Docker document (473 KB) and Memos (168 KB), more than the replica's 1 MiB cache.
    const big = join(tmpdir(), `big-${process.pid}.json`);
    const paths = Object.fromEntries(
      Array.from({ length: 300 }, (_, n) => [`/things${n}`, { get: { operationId: `getThing${n}`, description: "words ".repeat(330) } }]),
    );
    await writeFile(big, JSON.stringify({ openapi: "3.0.3", info: { title: "Big", version: "1" }, paths }));
    const loader = await startSearch(["--store", url, ...fileRoots(tmpdir())]);
    const client = await connectClient(loader.url);
    for (const [name, path] of [
      ["memos", MEMOS],
      ["docker", DOCKER],
      ["big", big],
    ] as const) {
      expect((await callTool(client, "load_openapi", { name, url: path })).isError).toBe(false);
    }
    await client.close();
    await loader.close();

    // A restart: nothing read, yet every document listed and searchable.
    const replica = await startSearch(["--store", url, "--store-cache-mb", "1", ...fileRoots()]);
    const catalogue = replica.catalogue;
    if (!(catalogue instanceof PostgresCatalogue)) throw new Error("a PostgreSQL catalogue");
    const reader = await connectClient(replica.url);
    try {
      expect(catalogue.cached.count).toBe(0);
      expect(((await callTool(reader, "list_apis")).structured.apis as unknown[]).length).toBe(3);
      expect((await found(reader, "create a container"))[0]?.operationId).toBe("ContainerCreate");
      expect(catalogue.cached.count).toBe(0);
      // Reading documents holds them, within 1 MiB of document text: the big one pushes out the least recently used.
      for (const name of ["docker", "memos", "big"]) {
        expect((await callTool(reader, "list_tags", { name })).isError).toBe(false);
        expect(catalogue.cached.bytes).toBeLessThanOrEqual(1024 * 1024);
      }
      expect(catalogue.cached.count).toBe(2);
      // What was pushed out is read again when asked for.
      expect((await callTool(reader, "get_operation_by_id", { name: "docker", operation_id: "ContainerCreate" })).isError).toBe(false);
    } finally {
      await reader.close();
      await replica.close();
    }
  });

  it("records who loaded a document: another user's replace or unload is refused, in the transaction, unless an administrator's", async () => {
    const url = await database();
    const replica = await startSearch(["--store", url, ...fileRoots()]);
    const catalogue = replica.catalogue;
    try {
      const alice = { subject: "alice", admin: false };
      const bob = { subject: "bob", admin: false };
      await catalogue.load("memos", MEMOS, { by: alice });
      expect(await sql(url, "SELECT owner FROM oapi_apis WHERE name = 'memos'")).toEqual([{ owner: "alice" }]);
      await expect(catalogue.load("memos", MUSEUM, { by: bob })).rejects.toThrow("'memos' was loaded by another user: to replace it");
      await expect(catalogue.unload("memos", bob)).rejects.toThrow("to remove it you need the catalogue's administrative scope");
      expect((await catalogue.get("memos")).operations.length).toBeGreaterThan(10);
      await catalogue.load("memos", MUSEUM, { by: { subject: "root", admin: true } });
      expect(await sql(url, "SELECT owner FROM oapi_apis WHERE name = 'memos'")).toEqual([{ owner: "root" }]);
      await catalogue.unload("memos", { subject: "root", admin: false });
      expect(await sql(url, "SELECT count(*)::int AS n FROM oapi_apis")).toEqual([{ n: 0 }]);
    } finally {
      await replica.close();
    }
  });

  it("keeps owners across a restart, and the operator's documents (loaded with no one signed in) need the administrative scope", async () => {
    const url = await database();
    const first = await startSearch(["--store", url, ...fileRoots()]);
    const alice = { subject: "alice", admin: false };
    const bob = { subject: "bob", admin: false };
    try {
      await first.catalogue.load("memos", MEMOS, { by: alice });
      // What the operator loads (at start-up, or before sign-in was on) has no owner.
      await first.catalogue.load("company", MUSEUM);
    } finally {
      await first.close();
    }
    const restarted = await startSearch(["--store", url, ...fileRoots()]);
    const { catalogue } = restarted;
    try {
      await expect(catalogue.load("memos", MUSEUM, { by: bob })).rejects.toThrow("'memos' was loaded by another user");
      await expect(catalogue.unload("memos", bob)).rejects.toThrow("to remove it you need the catalogue's administrative scope");
      await expect(catalogue.load("company", MEMOS, { by: bob })).rejects.toThrow("'company' is the operator's");
      await expect(catalogue.unload("company", alice)).rejects.toThrow("to remove it you need the catalogue's administrative scope");
      // A name no document holds is anyone's to load.
      await catalogue.load("bobs", MUSEUM, { by: bob });
      await catalogue.unload("company", { subject: "root", admin: true });
      expect(await sql(url, "SELECT name, owner FROM oapi_apis ORDER BY name")).toEqual([
        { name: "bobs", owner: "bob" },
        { name: "memos", owner: "alice" },
      ]);
    } finally {
      await restarted.close();
    }
  });

  it("reads a GraphQL schema back from the database as it was loaded: kind, fields, arguments, requests", async () => {
    const url = await database();
    const loader = await startSearch(["--store", url, ...fileRoots()]);
    const client = await connectClient(loader.url);
    expect((await callTool(client, "load_openapi", { name: "library", url: `${FIXTURES}graphql/library.graphql` })).isError).toBe(false);
    await client.close();
    await loader.close();
    const replica = await startSearch(["--store", url, ...fileRoots()]);
    const reader = await connectClient(replica.url);
    try {
      expect((await callTool(reader, "list_apis")).structured.apis).toMatchObject([
        { name: "library", kind: "graphql", operations_count: 9 },
      ]);
      for (const name of [undefined, "library"]) {
        const byArgument = await callTool(reader, "search_endpoints", { ...(name ? { name } : {}), keyword: "memberId" });
        expect((byArgument.structured.results as { operationId: string }[])[0]?.operationId).toBe("mutation.borrowBook");
      }
      const request = await callTool(reader, "build_request", {
        name: "library",
        operation_id: "mutation.borrowBook",
        base_url: "https://library.example/graphql",
      });
      expect(request.isError, request.text).toBe(false);
      expect(request.text).toContain("borrowBook");
    } finally {
      await reader.close();
      await replica.close();
    }
  });

  it("migrates once when replicas start together, and again never", async () => {
    const url = await database();
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 2 }));
    try {
      const applied = await Promise.all(pools.map((pool) => migrate(pool)));
      expect(applied.flat().sort()).toEqual([1, 2]);
      expect(await migrate(pools[0] as pg.Pool)).toEqual([]);
      expect(await sql(url, "SELECT version FROM oapi_schema_migrations ORDER BY version")).toEqual([{ version: 1 }, { version: 2 }]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it("stores text PostgreSQL cannot hold as written (NUL characters) and keeps SQL in the arguments, never the query", async () => {
    const url = await database();
    const file = join(tmpdir(), `nul-${process.pid}.json`);
    const hostile = "x'); DROP TABLE oapi_apis; --";
    await writeFile(
      file,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "Nul\u0000Title", version: "1", description: hostile },
        tags: [{ name: `Tag\u0000${hostile}` }],
        paths: { "/things": { get: { operationId: "listThings", summary: `List\u0000things ${hostile}`, tags: [`Tag\u0000${hostile}`] } } },
      }),
    );
    const search = await startSearch(["--store", url, ...fileRoots(tmpdir())]);
    const client = await connectClient(search.url);
    try {
      const loaded = await callTool(client, "load_openapi", { name: "nul", url: file });
      expect(loaded.isError, loaded.text).toBe(false);
      expect((await found(client, "list things"))[0]?.operationId).toBe("listThings");
      const tagged = await callTool(client, "search_endpoints", { tag: `tag\u0000${hostile}`.replace("\u0000", "\uFFFD") });
      expect(tagged.structured.total, tagged.text).toBe(1);
      expect((await callTool(client, "search_endpoints", { keyword: hostile })).isError).toBe(false);
      // A document that cannot be read says why: its own failure, never the database's.
      const missing = await callTool(client, "load_openapi", { name: "missing", url: join(tmpdir(), `no-such-${process.pid}.json`) });
      expect(missing.text).toMatch(/Failed to load 'missing'/);
      expect(missing.text).not.toMatch(/database/);
      // A NUL in a name or a tag is looked for as any other text: not found, never a database error.
      expect((await callTool(client, "list_tags", { name: "nul\u0000x" })).text).toMatch(/API 'nul.x' not found\. Did you mean 'nul'\?/);
      expect((await callTool(client, "search_endpoints", { tag: `Tag\u0000${hostile}` })).structured.total).toBe(1);
      expect(await sql(url, "SELECT count(*)::int AS count FROM oapi_apis")).toEqual([{ count: 1 }]);
    } finally {
      await client.close();
      await search.close();
    }
  });
});

describe("what the PostgreSQL catalogue takes", () => {
  it("stores every document the memory store takes: lone surrogates, and a summary of 200,000 words (searched in its first part)", async () => {
    const url = await database();
    const lone = join(tmpdir(), `lone-${process.pid}.json`);
    const long = join(tmpdir(), `long-${process.pid}.json`);
    await writeFile(
      lone,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "Lone \ud800 surrogate", version: "1", description: "\udc00" },
        tags: [{ name: "Tag\ud800" }],
        paths: {
          "/things": {
            get: {
              operationId: "listThings",
              summary: "List \udfff things",
              tags: ["Tag\ud800"],
              responses: { 200: { description: "ok" } },
            },
          },
        },
      }),
    );
    const words = Array.from({ length: 200_000 }, (_, n) => `w${n}`).join(" ");
    await writeFile(
      long,
      JSON.stringify({
        openapi: "3.0.3",
        info: { title: "Long", version: "1" },
        paths: { "/a": { get: { operationId: "getA", summary: words, responses: { 200: { description: "ok" } } } } },
      }),
    );
    const search = await startSearch(["--store", url, ...fileRoots(tmpdir())]);
    const client = await connectClient(search.url);
    try {
      for (const [name, file] of [
        ["lone", lone],
        ["long", long],
      ] as const) {
        const loaded = await callTool(client, "load_openapi", { name, url: file });
        expect(loaded.isError, loaded.text).toBe(false);
      }
      expect((await found(client, "list things"))[0]).toMatchObject({ api: "lone", operationId: "listThings" });
      expect((await callTool(client, "search_endpoints", { tag: "tag\ud800" })).structured.total).toBe(1);
      expect((await found(client, "w1234"))[0]).toMatchObject({ api: "long", operationId: "getA" });
      expect((await callTool(client, "get_operation_by_id", { name: "lone", operation_id: "listThings" })).isError).toBe(false);
    } finally {
      await client.close();
      await search.close();
      await Promise.all([rm(lone), rm(long)]);
    }
  }, 60_000);

  it("refuses a cursor SQL cannot take as the caller's mistake, before it reaches the database", async () => {
    const search = await startSearch(["--store", await database(), ...fileRoots()]);
    const client = await connectClient(search.url);
    try {
      expect((await callTool(client, "load_openapi", { name: "memos", url: MEMOS })).isError).toBe(false);
      for (const cursor of ["1e300", "1e20", "9007199254740993"]) {
        const answer = await callTool(client, "search_endpoints", { cursor });
        expect(answer.isError, cursor).toBe(true);
        expect(answer.text, cursor).toMatch(/invalid cursor/);
        expect(answer.text, cursor).not.toMatch(/database/);
      }
      expect((await callTool(client, "search_endpoints", { cursor: "5", limit: 5 })).structured.count).toBe(5);
    } finally {
      await client.close();
      await search.close();
    }
  });

  it("logs and echoes its database's URL without a password given in the query (nor its SSL key's)", async () => {
    const lines: string[] = [];
    const record = (message: string, fields?: Record<string, unknown>) => lines.push(`${message} ${JSON.stringify(fields)}`);
    const log = { info: record, warn: record, error: record };
    const start = (store: string, wait = "30") =>
      startSearchServer(parseSearchArguments(["--port", "0", "--store", store, "--store-wait-seconds", wait]), log);
    const secrets = "password=TOP-SECRET&sslpassword=KEY-SECRET&sslmode=disable";
    await expect(start(`postgres://someone@127.0.0.1:1/nothing?${secrets}`, "1")).rejects.toThrow(
      /cannot open the catalogue at postgres:\/\/someone@127\.0\.0\.1:1\/nothing\?password=\*\*\*&sslpassword=\*\*\*&sslmode=disable:/,
    );
    const search = await start(`${await database()}?${secrets}`);
    try {
      expect(search.catalogue.location).toMatch(/\?password=\*\*\*&sslpassword=\*\*\*&sslmode=disable$/);
    } finally {
      await search.close();
    }
    expect(lines.some((line) => /waiting for the catalogue's database/.test(line))).toBe(true);
    expect(lines.some((line) => /listening/.test(line))).toBe(true);
    expect(lines.join("\n")).not.toMatch(/SECRET/);
  });
});

describe("a replica whose database does not answer", () => {
  it("answers a load whose connection the database ends in its write transaction, and keeps serving", async () => {
    const url = await database();
    const replica = await startSearchProcess(["--store", url, ...fileRoots()]);
    const client = await connectClient(replica.url);
    try {
      expect((await callTool(client, "load_openapi", { name: "memos", url: MEMOS })).isError).toBe(false);
      await sql(url, HANG_UP);
      const exited = once(replica.child, "exit").then(() => ({ text: `the replica exited: ${replica.log().slice(-300)}` }));
      const lost = await Promise.race([callTool(client, "load_openapi", { name: "museum", url: MUSEUM }), exited]);
      expect(lost.text).toMatch(/Failed to load 'museum': the catalogue's database does not answer/);
      await sql(url, "DROP TRIGGER hang_up ON oapi_terms");
      expect(replica.child.exitCode).toBeNull();
      expect((await callTool(client, "load_openapi", { name: "museum", url: MUSEUM })).isError).toBe(false);
      expect((await callTool(client, "list_apis")).structured.apis).toMatchObject([{ name: "memos" }, { name: "museum" }]);
    } finally {
      await client.close();
      replica.stop();
    }
  });

  it("fails a migration whose connection the database ends, not the process", async () => {
    const pool = new pg.Pool({ connectionString: await database(), max: 1 });
    pool.on("error", () => {});
    try {
      const hangUp = { version: 1, name: "hang up", sql: "SELECT pg_terminate_backend(pg_backend_pid())" };
      await expect(migrate(pool, [hangUp])).rejects.toThrow(/migration 1 \(hang up\) failed: terminating connection/);
      expect(await migrate(pool)).toEqual([1, 2]);
    } finally {
      await pool.end();
    }
  });

  it("says so on /health within two seconds of its database pausing, answering at once, and again when it resumes", async () => {
    const search = await startSearch(["--store", await database()]);
    const health = async () => {
      const started = Date.now();
      const response = await fetch(new URL("/health", search.url));
      return { status: response.status, ms: Date.now() - started };
    };
    // Every process of the test's server, stopped (as a paused VM or a hung host is): nothing it holds answers.
    const pids = (
      await sql<{ pid: number }>(
        server.url,
        "SELECT pid FROM pg_stat_activity UNION SELECT split_part(pg_read_file('postmaster.pid'), E'\\n', 1)::int",
      )
    ).map((row) => row.pid);
    const signal = (name: NodeJS.Signals) => {
      for (const pid of pids) {
        try {
          process.kill(pid, name);
        } catch {
          // a backend that has ended since
        }
      }
    };
    try {
      expect((await health()).status).toBe(200);
      const paused = Date.now();
      signal("SIGSTOP");
      try {
        const down = await until(health, (answer) => answer.status === 503, 4_000);
        expect(down.status).toBe(503);
        expect(Date.now() - paused).toBeLessThan(3_000);
        expect(down.ms).toBeLessThan(500);
      } finally {
        signal("SIGCONT");
      }
      expect((await until(health, (answer) => answer.status === 200, 4_000)).status).toBe(200);
    } finally {
      await search.close();
    }
  });

  it("tells callers so without the database's address, says so on /health (503), and recovers when it answers", async () => {
    const own = await startPostgres();
    try {
      const url = await own.createDatabase("outage");
      const search = await startSearch(["--store", url, ...fileRoots()]);
      const client = await connectClient(search.url);
      try {
        expect((await callTool(client, "load_openapi", { name: "memos", url: MEMOS })).isError).toBe(false);
        await own.halt();
        for (const [tool, args] of [
          ["list_apis", {}],
          ["search_endpoints", { keyword: "create a memo" }],
          ["list_tags", { name: "memos" }],
        ] as const) {
          const answer = await callTool(client, tool, args);
          expect(answer.isError, tool).toBe(true);
          expect(answer.text, tool).toMatch(/the catalogue's database does not answer; try again shortly/);
        }
        const loaded = await callTool(client, "load_openapi", { name: "more", url: MUSEUM });
        expect(loaded.text).toMatch(/Failed to load 'more': the catalogue's database does not answer/);
        expect(loaded.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
        const health = await fetch(new URL("/health", search.url));
        expect(health.status).toBe(503);
        expect(await health.json()).toMatchObject({ status: "unavailable" });

        await own.start();
        expect((await callTool(client, "list_apis")).structured.apis).toMatchObject([{ name: "memos" }]);
        expect((await found(client, "create a memo"))[0]?.operationId).toBe("MemoService_CreateMemo");
        expect((await fetch(new URL("/health", search.url))).status).toBe(200);
      } finally {
        await client.close();
        await search.close();
      }
    } finally {
      await own.stop();
    }
  });

  it("waits at start-up for a database that is not up yet", async () => {
    const own = await startPostgres();
    try {
      const url = await own.createDatabase("late");
      await own.halt();
      const starting = startSearch(["--store", url, "--store-wait-seconds", "30"]);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await own.start();
      const search = await starting;
      expect(search.catalogue.healthy).toBe(true);
      await search.close();
    } finally {
      await own.stop();
    }
  });
});

describe("the search server's store option", () => {
  it("takes a postgres:// --store, else DATABASE_URL when no store is chosen", () => {
    const env = { DATABASE_URL: "postgresql://u@db/apis" };
    expect(databaseUrl(parseSearchArguments(["--store", "postgres://u@db/one"]), env)).toBe("postgres://u@db/one");
    expect(databaseUrl(parseSearchArguments([]), env)).toBe("postgresql://u@db/apis");
    expect(databaseUrl(parseSearchArguments(["--store", "/var/lib/apis"]), env)).toBeUndefined();
    expect(databaseUrl(parseSearchArguments(["--memory"]), env)).toBeUndefined();
    expect(databaseUrl(parseSearchArguments([]), { DATABASE_URL: "mysql://u@db/apis" })).toBeUndefined();
  });

  it("shows a database URL with every secret node-postgres takes from it hidden", () => {
    for (const [url, shown] of [
      ["postgres://u:pw@db:5432/apis", "postgres://u:***@db:5432/apis"],
      ["postgres://u@db/apis?password=pw", "postgres://u@db/apis?password=***"],
      ["postgres://u@db/apis?PassWord=pw&password=again", "postgres://u@db/apis?PassWord=***&password=***"],
      [
        "postgresql://db/apis?sslmode=require&sslkey=/keys/k.pem&sslpassword=pw&application_name=search",
        "postgresql://db/apis?sslmode=require&sslkey=***&sslpassword=***&application_name=search",
      ],
      ["postgres://db/apis?sslmode=verify-full", "postgres://db/apis?sslmode=verify-full"],
      ["postgres://[not a url", "postgres://(unparsable URL)"],
    ] as const) {
      expect(withoutSecrets(url), url).toBe(shown);
    }
  });

  it("refuses a database it cannot reach, naming it without its password", async () => {
    const unreachable = "postgres://someone:secret@127.0.0.1:1/nothing";
    await expect(startSearch(["--store", unreachable, "--store-wait-seconds", "0"])).rejects.toThrow(
      /cannot open the catalogue at postgres:\/\/someone:\*\*\*@127\.0\.0\.1:1\/nothing/,
    );
  });
});
