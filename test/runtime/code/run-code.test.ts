import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CodeSettings, type RunningServer, silentLogger, startServer } from "oapi-mcp-gen-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverIdentity, tools } from "../../../generated/index.js";
import { postFrom } from "../../helpers/loopback-post.js";
import { connectClient, testEnvironment } from "../../helpers/memos-server.js";
import { sendJson, startUpstream } from "../../helpers/upstream.js";

/** A Memos upstream that keeps what it is sent: memos and their comments. */
function memosUpstream() {
  const memos: { name: string; content: string; parent?: string }[] = [];
  return startUpstream((req, res) => {
    const body = req.body;
    const comments = /^\/api\/v1\/memos\/([^/]+)\/comments$/.exec(req.path);
    if (req.method === "POST" && req.path === "/api/v1/memos") {
      const memo = { name: `memos/${memos.length + 1}`, content: JSON.parse(body).content };
      memos.push(memo);
      return sendJson(res, 200, { ...memo, state: "NORMAL", visibility: "PRIVATE" });
    }
    if (req.method === "POST" && comments) {
      const memo = { name: `memos/${memos.length + 1}`, content: JSON.parse(body).content, parent: `memos/${comments[1]}` };
      memos.push(memo);
      return sendJson(res, 200, { ...memo, state: "NORMAL", visibility: "PRIVATE" });
    }
    if (req.method === "GET" && comments) {
      return sendJson(res, 200, { memos: memos.filter((memo) => memo.parent === `memos/${comments[1]}`), totalSize: 1 });
    }
    return sendJson(res, 404, { message: "not found" });
  });
}

/** The time budget of the pool's server: the pool tests' margins against a loaded machine. */
const POOL_BUDGET_MS = 4_000;

/** A raw `run_code` call, as a client without the SDK sends it. */
function runCode(id: number, code: string) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name: "run_code", arguments: { code } } };
}

/** The text of an answer as sent. */
function textOf(answer: { text: string }): string {
  return answer.text;
}

/** What a run returned. */
function resultOf(result: Awaited<ReturnType<Client["callTool"]>>): unknown {
  return (result.structuredContent as { result?: unknown } | undefined)?.result;
}

/** The text of a failed call. */
function errorText(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

describe("run_code: a program against the Memos tools, through the SDK client", () => {
  let upstream: Awaited<ReturnType<typeof memosUpstream>>;
  const servers: RunningServer[] = [];
  const clients: Client[] = [];
  async function connect(code: CodeSettings): Promise<Client> {
    const server = await startServer({
      identity: serverIdentity,
      tools,
      code,
      log: silentLogger,
      environment: testEnvironment(upstream.url),
    });
    servers.push(server);
    const client = await connectClient(server.url);
    clients.push(client);
    return client;
  }
  let writer: Client;
  let reader: Client;
  /** The pool's server: a budget wide enough that a loaded machine's slow worker start stays well inside it. */
  let pooled: URL;
  beforeAll(async () => {
    upstream = await memosUpstream();
    writer = await connect({ allowWrites: ["memo_create_memo", "MemoService_CreateMemoComment"], timeoutMs: 5_000, memoryMb: 16 });
    reader = await connect({ timeoutMs: 1_000 });
    await connect({ timeoutMs: POOL_BUDGET_MS });
    pooled = (servers[2] as RunningServer).url;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(servers.map((server) => server.close()));
    await upstream.close();
  });

  it("lists run_code beside the tools, with this API's example and the write policy", async () => {
    const { tools: listed } = await writer.listTools();
    const runCode = listed.find((tool) => tool.name === "run_code");
    expect(listed).toHaveLength(18);
    expect(runCode?.description).toContain("api.");
    expect(runCode?.description).toContain("only through memo_create_memo, memo_create_memo_comment");
    expect(runCode?.annotations?.readOnlyHint).toBe(false);
    const readOnly = (await reader.listTools()).tools.find((tool) => tool.name === "run_code");
    expect(readOnly?.annotations?.readOnlyHint).toBe(true);
  });

  it("creates a memo, comments on it, lists its comments and returns a summary, in one call", async () => {
    const before = upstream.requests.length;
    const result = await writer.callTool({
      name: "run_code",
      arguments: {
        code: `
          interface Memo { name: string; content: string }
          const memo: Memo = await api.memo_create_memo({ body: { content: "groceries", state: "NORMAL", visibility: "PRIVATE" } });
          await api.memo_create_memo_comment({ memo: memo.name, body: { content: "and milk", state: "NORMAL", visibility: "PRIVATE" } });
          const { memos } = await api.memo_list_memo_comments({ memo: memo.name });
          console.log("created", memo.name);
          return { memo: memo.name, comments: memos.map((comment: Memo) => comment.content) };`,
      },
    });
    expect(result.isError, errorText(result)).toBeFalsy();
    expect(result.structuredContent).toEqual({
      result: { memo: "memos/1", comments: ["and milk"] },
      logs: ["created memos/1"],
      calls: [
        { name: "memo_create_memo", ok: true },
        { name: "memo_create_memo_comment", ok: true },
        { name: "memo_list_memo_comments", ok: true },
      ],
    });
    const sent = upstream.requests.slice(before).map((request) => `${request.method} ${request.path}`);
    expect(sent).toEqual(["POST /api/v1/memos", "POST /api/v1/memos/1/comments", "GET /api/v1/memos/1/comments"]);
  });

  it("validates each call's arguments as call_operation does, and a failed call throws in the program", async () => {
    const result = await writer.callTool({
      name: "run_code",
      arguments: { code: `try { await api.memo_list_memo_comments({}); } catch (error) { return String(error.message); }` },
    });
    expect(JSON.stringify(result.structuredContent)).toContain("Invalid arguments for memo_list_memo_comments");
  });

  it("reads only by default: an operation that changes data throws, and nothing is sent", async () => {
    const before = upstream.requests.length;
    const result = await reader.callTool({
      name: "run_code",
      arguments: { code: `return await api.memo_create_memo({ body: { content: "x", state: "NORMAL", visibility: "PRIVATE" } });` },
    });
    expect(result.isError).toBe(true);
    expect(errorText(result)).toContain("api.memo_create_memo changes data (POST)");
    expect(upstream.requests.length).toBe(before);
    const allowedElsewhere = await writer.callTool({
      name: "run_code",
      arguments: { code: `return await api.memo_delete_memo({ memo: "memos/1" });` },
    });
    expect(errorText(allowedElsewhere)).toContain("api.memo_delete_memo changes data (DELETE)");
  });

  it("gives the program no process, require, import, fetch or timers, and no way to the host's objects", async () => {
    const probes = [
      "typeof process",
      "typeof require",
      "typeof fetch",
      "typeof setTimeout",
      "typeof globalThis.constructor.constructor('return typeof process')",
      "globalThis.constructor.constructor('return typeof process')()",
      "(() => { Object.prototype.polluted = 'yes'; Array.prototype.push = null; return 'set'; })()",
    ];
    const result = await reader.callTool({ name: "run_code", arguments: { code: `return [${probes.join(", ")}];` } });
    expect(resultOf(result)).toEqual(["undefined", "undefined", "undefined", "undefined", "function", "undefined", "set"]);
    expect(Object.prototype).not.toHaveProperty("polluted");
    const imported = await reader.callTool({ name: "run_code", arguments: { code: `return await import("node:fs");` } });
    expect(errorText(imported)).toContain("could not load module");
    const statement = await reader.callTool({
      name: "run_code",
      arguments: { code: `const a = 1;\nimport fs from "node:fs";\nreturn 1;` },
    });
    expect(errorText(statement)).toContain("a program has no modules (import at line 2): only api and console exist");
    // The next run starts clean: the last one's pollution is gone.
    const next = await reader.callTool({ name: "run_code", arguments: { code: `return [({}).polluted ?? null, typeof [].push];` } });
    expect(resultOf(next)).toEqual([null, "function"]);
  });

  it("has on api exactly the server's operations", async () => {
    const result = await reader.callTool({
      name: "run_code",
      arguments: { code: `return [Object.keys(api).length, typeof api.memo_get_memo, typeof api.user_get_user, Object.isFrozen(api)];` },
    });
    expect(resultOf(result)).toEqual([17, "function", "undefined", true]);
  });

  it("ends a runaway loop at its budget while the server goes on answering other callers", async () => {
    const loop = reader.callTool({ name: "run_code", arguments: { code: "while (true) {}" } });
    let loopEnded = false;
    void loop.then(() => {
      loopEnded = true;
    });
    const meanwhile = await writer.callTool({ name: "memo_list_memo_comments", arguments: { memo: "memos/1" } });
    expect(meanwhile.isError).toBeFalsy();
    // The other caller was answered while the loop still ran.
    expect(loopEnded).toBe(false);
    const ended = await loop;
    expect(ended.isError).toBe(true);
    expect(errorText(ended)).toContain("the run passed its time budget");
  });

  it("shares the pool by caller as the network sees it: made-up tokens buy nothing, a third program waits its turn", async () => {
    // One client (127.0.0.2) with a new token for every program: two run, two wait, the rest are refused at once.
    // The two that run wait on a promise that never settles: they hold their places to the budget without burning CPU.
    const hog = [1, 2, 3, 4, 5, 6].map((n) =>
      postFrom(pooled, "127.0.0.2", runCode(n, n <= 2 ? "await new Promise(() => {});" : `return ${n};`), {
        headers: { authorization: `Bearer fake-${n}` },
      }),
    );
    let loopEnded = false;
    void hog[0]?.then(() => {
      loopEnded = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const other = await postFrom(pooled, "127.0.0.3", runCode(9, "return 9;"));
    expect(textOf(other)).toContain('"result":9');
    // The other caller was answered while the hog's loops still ran: it did not wait behind them.
    expect(loopEnded).toBe(false);
    const [first, second, third, fourth, fifth, sixth] = (await Promise.all(hog)).map(textOf);
    for (const loop of [first, second]) expect(loop).toContain("the run passed its time budget");
    // The third and fourth waited for the loops to end, then ran; the fifth and sixth were refused.
    expect([third, fourth]).toEqual([expect.stringContaining('"result":3'), expect.stringContaining('"result":4')]);
    for (const refused of [fifth, sixth]) expect(refused).toContain("2 of your programs are running and 2 waiting");
  });

  it("stops a program whose caller hung up, and its place goes to the next", async () => {
    const before = upstream.requests.length;
    const started = Date.now();
    const gone = [1, 2].map((n) => postFrom(pooled, "127.0.0.4", runCode(n, "while (true) {}"), { hangUpAfterMs: 100 }));
    await Promise.all(gone);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = await postFrom(pooled, "127.0.0.4", runCode(3, "return 3;"));
    expect(textOf(next)).toContain('"result":3');
    // Had the loops run on, the caller's two places would have been theirs until their budget ended.
    expect(Date.now() - started).toBeLessThan(POOL_BUDGET_MS);
    expect(upstream.requests.length).toBe(before);
  });

  it("bounds what a program can make the server carry: a thrown message, a replaced stringify or then, deep arguments", async () => {
    const thrown = await reader.callTool({ name: "run_code", arguments: { code: `throw new Error("E".repeat(5000000));` } });
    expect(errorText(thrown).length).toBeLessThan(3_000);
    expect(errorText(thrown)).toContain("… (4998007 more characters) at line 1");
    const stringify = await reader.callTool({
      name: "run_code",
      arguments: {
        code: `const big = JSON.stringify("x".repeat(2e6)); JSON.stringify = () => ({ length: 0, toString: () => big }); return 1;`,
      },
    });
    expect(resultOf(stringify)).toBe(1);
    const then = await reader.callTool({
      name: "run_code",
      arguments: {
        code: `const big = JSON.stringify("y".repeat(2e6)), then = Promise.prototype.then;
               Promise.prototype.then = function (f, r) { Promise.prototype.then = then; return then.call(this, () => big, r); };
               return 1;`,
      },
    });
    expect(JSON.stringify(then).length).toBeLessThan(10_000);
    const deep = await reader.callTool({
      name: "run_code",
      arguments: { code: "let v = 1; for (let i = 0; i < 1000; i++) v = { a: v };\nreturn await api.memo_get_memo({ name: v });" },
    });
    expect(errorText(deep)).toContain("api.memo_get_memo: Invalid arguments for memo_get_memo: nested deeper than 128 levels");
  });

  it("starts no call after the run ended: a handler left behind by a program past its budget is refused", async () => {
    const before = upstream.requests.length;
    const ended = await reader.callTool({
      name: "run_code",
      arguments: { code: `api.memo_list_memo_comments({ memo: "memos/1" }).finally(() => api.memo_list_memos({}));\nwhile (true) {}` },
    });
    expect(errorText(ended)).toContain("the run passed its time budget");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(upstream.requests.slice(before).map((request) => request.path)).toEqual(["/api/v1/memos/1/comments"]);
  });

  it("ends a memory bomb, deep recursion, 10,000 calls and a huge result each with a clear error", async () => {
    const bomb = await writer.callTool({
      name: "run_code",
      arguments: { code: "const a = []; for (let i = 0; ; i++) a.push({ i, text: 'item ' + i });" },
    });
    expect(errorText(bomb)).toMatch(/out of memory/);
    const deep = await writer.callTool({ name: "run_code", arguments: { code: "function f(n) { return f(n + 1) + 1; }\nreturn f(0);" } });
    expect(errorText(deep)).toMatch(/stack overflow at line 1/);
    const before = upstream.requests.length;
    const many = await writer.callTool({
      name: "run_code",
      arguments: {
        code: `const all = []; for (let i = 0; i < 10000; i++) all.push(api.memo_list_memo_comments({ memo: "memos/1" }));
               const settled = await Promise.allSettled(all);
               return [settled.filter((s) => s.status === "fulfilled").length, settled.find((s) => s.status === "rejected").reason.message];`,
      },
    });
    expect(resultOf(many)).toEqual([50, "api.memo_list_memo_comments: the run's 50 calls are used up"]);
    expect(upstream.requests.length - before).toBe(50);
    const huge = await writer.callTool({ name: "run_code", arguments: { code: `return "x".repeat(2000000);` } });
    expect(errorText(huge)).toContain("a run may return 1048576");
    const chatty = await writer.callTool({
      name: "run_code",
      arguments: { code: `for (let i = 0; i < 5000; i++) console.log("line", i); return 1;` },
    });
    expect(chatty.structuredContent).toMatchObject({ result: 1, logsCut: true });
    expect((chatty.structuredContent as { logs: unknown[] }).logs.length).toBe(1000);
    const long = await writer.callTool({ name: "run_code", arguments: { code: `console.log("y".repeat(100000)); return 1;` } });
    const kept = long.structuredContent as { logs: string[]; logsCut: boolean };
    expect([kept.logs[0]?.length, kept.logsCut]).toEqual([65_537, true]);
  });

  it("lists the calls a program did not wait for, and ends a typed-array memory bomb at the memory budget", async () => {
    const before = upstream.requests.length;
    const unawaited = await writer.callTool({
      name: "run_code",
      arguments: { code: `for (let i = 0; i < 3; i++) api.memo_list_memo_comments({ memo: "memos/1" });\nreturn "gone";` },
    });
    expect(resultOf(unawaited)).toBe("gone");
    const calls = (unawaited.structuredContent as { calls: { name: string }[] }).calls;
    expect(calls.map((call) => call.name)).toEqual(["memo_list_memo_comments", "memo_list_memo_comments", "memo_list_memo_comments"]);
    // The calls go on after the run: they reach the upstream (waited for, a loaded machine may take a while).
    await upstream.received(before + 3);
    expect(upstream.requests.length - before).toBe(3);
    const arrays = await writer.callTool({
      name: "run_code",
      arguments: { code: "const a = [];\nwhile (true) a.push(new Uint8Array(1000000));" },
    });
    expect(errorText(arrays)).toContain("out of memory at line 2");
    const one = await writer.callTool({ name: "run_code", arguments: { code: "const b = new Uint8Array(500000000);\nreturn b.length;" } });
    expect(errorText(one)).toContain("out of memory at line 1");
  });

  it("names an operation the server does not have, with the nearest", async () => {
    const result = await reader.callTool({ name: "run_code", arguments: { code: `const a = 1;\nreturn await api.memo_get_memos({});` } });
    expect(errorText(result)).toContain('at line 2; api.memo_get_memos is no operation of this server (did you mean "memo_get_memo"?)');
  });

  it("reports a syntax or runtime error with the program's line", async () => {
    const syntax = await reader.callTool({ name: "run_code", arguments: { code: "const a = 1;\nconst = 2;" } });
    expect(errorText(syntax)).toMatch(/SyntaxError.*at line 2/);
    const thrown = await reader.callTool({ name: "run_code", arguments: { code: "const a = 1;\n\nnull.x;" } });
    expect(errorText(thrown)).toContain("TypeError: cannot read property 'x' of null at line 3");
    const plain = await reader.callTool({ name: "run_code", arguments: { code: "throw 'plain';" } });
    expect(errorText(plain)).toContain('run_code: uncaught "plain"');
  });

  it("refuses what cannot cross as JSON: a function as arguments, a BigInt or a cycle as the result", async () => {
    const given = await reader.callTool({ name: "run_code", arguments: { code: "return await api.memo_get_memo(() => 1);" } });
    expect(errorText(given)).toContain("api.memo_get_memo: arguments must be an object at line 1");
    const big = await reader.callTool({ name: "run_code", arguments: { code: "return 10n;" } });
    expect(errorText(big)).toContain("the returned value is no JSON (TypeError: Do not know how to serialize a BigInt)");
    const cycle = await reader.callTool({ name: "run_code", arguments: { code: "const o = {}; o.o = o; return o;" } });
    expect(errorText(cycle)).toContain("the returned value is no JSON (TypeError: circular reference)");
    const nothing = await reader.callTool({ name: "run_code", arguments: { code: "return () => 1;" } });
    expect(resultOf(nothing)).toBeNull();
  });
});
