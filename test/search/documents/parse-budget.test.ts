import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bracketDepth, DocumentParser, parseTimeFor } from "../../../search/documents/index.js";
import { callTool, connectClient, fileRoots, MUSEUM, startSearch } from "../../helpers/search-server.js";

/** Red-team repro 02: a 4 KB SDL whose one field is a list type nested 2,000 deep. */
const NESTED_LIST = `type Query { a: ${"[".repeat(2000)}String${"]".repeat(2000)} }\n`;
/** Red-team repro 11, smaller: a 17 KB SDL whose 600 query fields each return a type of 600 fields. */
const WIDE = (() => {
  const fields = Array.from({ length: 600 }, (_, i) => `  field${i}: String\n`).join("");
  const queries = Array.from({ length: 600 }, (_, i) => `  q${i}: T\n`).join("");
  return `type T {\n${fields}}\ntype Query {\n${queries}}\n`;
})();
const GITHUB = createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json");

describe("parse budgets: no load stalls the others (red-team repro 02)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "parse-budget-"));
    await writeFile(join(dir, "nested-list.graphql"), NESTED_LIST);
    await writeFile(join(dir, "wide.graphql"), WIDE);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("counts bracket nesting outside strings and comments", () => {
    expect(bracketDepth("type Q { a: [[String]] }", true)).toBe(3);
    expect(bracketDepth('type Q { "[[[[" a: String # [[[[\n}', true)).toBe(1);
    expect(bracketDepth('"""\n[[[\n"""\ntype Q { a: [Int] }', true)).toBe(2);
    expect(bracketDepth(NESTED_LIST, true)).toBe(2001);
  });

  it("refuses a GraphQL schema nested 2,000 deep at once, while another caller's load goes on", async () => {
    const server = await startSearch(["--memory", ...fileRoots(dir)]);
    const client = await connectClient(server.url);
    try {
      const started = performance.now();
      const [hostile, victim] = await Promise.all([
        callTool(client, "load_openapi", { name: "nested", url: join(dir, "nested-list.graphql") }),
        callTool(client, "load_openapi", { name: "museum", url: MUSEUM }),
      ]);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(hostile.text).toContain("nests brackets 2001 deep; this server reads GraphQL schemas nested at most 64 deep");
      expect(victim.isError, victim.text).toBe(false);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("counts what a load builds: a 17 KB schema's selections count against the budget, and the server goes on serving", async () => {
    const server = await startSearch(["--memory", "--max-total-bytes", "2500000", ...fileRoots(dir)]);
    const client = await connectClient(server.url);
    try {
      const loads: string[] = [];
      for (let i = 1; i <= 3; i++) {
        const load = await callTool(client, "load_openapi", { name: `wide${i}`, url: join(dir, "wide.graphql") });
        loads.push(load.isError ? load.text : "loaded");
      }
      // Each load builds about 1 MB from 17 KB of text: the budget is reached after two.
      expect(loads.slice(0, 2), loads.join("\n")).toEqual(["loaded", "loaded"]);
      expect(loads[2]).toContain("over this server's 2500000-byte limit");
      const query = await callTool(client, "build_request", { name: "wide1", operation_id: "query.q7" });
      expect(query.isError, query.text).toBe(false);
      // A selection lists at most 100 of a type's scalar fields.
      expect(query.text).toContain("field99");
      expect(query.text).not.toContain("field100 ");
      const other = await callTool(client, "load_openapi", { name: "nested", url: join(dir, "nested-list.graphql") });
      expect(other.text).toContain("nests brackets 2001 deep");
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("gives a small document a few seconds and a large one more, never past the limit", () => {
    expect(parseTimeFor(4_025, 120_000)).toBe(5_040);
    expect(parseTimeFor(10_000_000, 120_000)).toBe(105_000);
    expect(parseTimeFor(50_000_000, 120_000)).toBe(120_000);
  });

  it("parses in more than one worker: a small document is not queued behind a large one", async () => {
    const parser = new DocumentParser({ maxOperations: 50_000, maxParseMemoryMb: 2048, parseTimeoutMs: 120_000, maxQueuedLoads: 16 });
    const { readFile } = await import("node:fs/promises");
    const [github, museum] = await Promise.all([readFile(GITHUB, "utf8"), readFile(MUSEUM, "utf8")]);
    try {
      const finished: string[] = [];
      await Promise.all([
        parser.parse(github, "json", "github").then(() => finished.push("github")),
        parser.parse(museum, "yaml", "museum").then(() => finished.push("museum")),
      ]);
      expect(finished).toEqual(["museum", "github"]);
    } finally {
      await parser.close();
    }
  }, 60_000);
});
