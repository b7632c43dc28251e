/**
 * Code mode against one tool call per step: five multi-step tasks over Memos and GitHub (every operation, discovery
 * mode) on one loopback upstream, counting round trips and the bytes each way returns to the model; then the latency
 * `run_code` adds to one call, and the engine's start.
 */
import { readdirSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { callByName, createToolRuntime, firstSentence, silentLogger, type ToolDefinition, type ToolRuntime } from "oapi-mcp-gen-runtime";
import { checkerFor, closeSandbox, codeOf, warmSandbox } from "oapi-mcp-gen-runtime/code";
import { discoveryOf } from "oapi-mcp-gen-runtime/discovery";
import { tools as memosTools } from "../generated/index.js";
import { resolveConfig } from "../generator/config/index.js";
import { buildTools, discoveryData } from "../generator/model/index.js";
import { selectOperations } from "../generator/select/index.js";
import { buildApiModel } from "../openapi/model/index.js";
import { qualityDocument } from "../scripts/rank-quality.js";
import { toolDefinition } from "../templates/tool-module.js";
import { fmt, median, percentile, table } from "./stats.js";

/** A JSON object of about `bytes` bytes: an id, a title and filler, as list items of real APIs carry. */
function item(id: number, bytes: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    number: id,
    name: `memos/${id}`,
    login: `user${id}`,
    title: `Item ${id}`,
    ...extra,
    body: "x".repeat(Math.max(0, bytes - 120)),
  };
}

/** Answers like the two APIs, with realistic sizes: lists of 30 items of about 1 KB, single objects of a few KB. */
function respond(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? "/", "http://upstream").pathname;
  const list = (count: number, bytes: number) => Array.from({ length: count }, (_, index) => item(index + 1, bytes));
  let body: unknown;
  if (/\/comments$/.test(path) && req.method === "GET") body = path.startsWith("/api/") ? { memos: list(10, 500) } : list(10, 500);
  else if (/\/reactions$/.test(path)) body = { reactions: list(5, 200) };
  else if (path === "/api/v1/memos") body = req.method === "POST" ? item(1, 400) : { memos: list(20, 800) };
  else if (/^\/api\/v1\/memos\/\d+\/comments$/.test(path)) body = item(2, 400);
  else if (/^\/repos\/[^/]+\/[^/]+\/(issues|pulls|contributors)$/.test(path)) body = list(30, 1_000);
  else if (/^\/repos\/[^/]+\/[^/]+$/.test(path)) body = item(1, 3_000, { full_name: "octo/hello" });
  else if (/^\/users\/[^/]+$/.test(path)) body = item(1, 1_200, { followers: 42 });
  else body = {};
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** A multi-step task: the calls one step at a time, and the same task as one program. */
interface Task {
  label: string;
  steps: (name: (operationId: string) => string) => [tool: string, args: Record<string, unknown>][];
  program: (name: (operationId: string) => string) => string;
}

const TASKS: { api: "Memos" | "GitHub"; task: Task }[] = [
  {
    api: "Memos",
    task: {
      label: "create a memo, comment on it, list its comments, summarise",
      steps: () => [
        ["memo_create_memo", { body: { content: "groceries", state: "NORMAL", visibility: "PRIVATE" } }],
        ["memo_create_memo_comment", { memo: "memos/1", body: { content: "and milk", state: "NORMAL", visibility: "PRIVATE" } }],
        ["memo_list_memo_comments", { memo: "memos/1" }],
      ],
      program: () =>
        `const memo = await api.memo_create_memo({ body: { content: "groceries", state: "NORMAL", visibility: "PRIVATE" } });
         await api.memo_create_memo_comment({ memo: memo.name, body: { content: "and milk", state: "NORMAL", visibility: "PRIVATE" } });
         const { memos } = await api.memo_list_memo_comments({ memo: memo.name });
         return { memo: memo.name, comments: memos.length };`,
    },
  },
  {
    api: "Memos",
    task: {
      label: "list memos, count the reactions of the first five",
      steps: () => [
        ["memo_list_memos", {}],
        ...[1, 2, 3, 4, 5].map((id): [string, Record<string, unknown>] => ["memo_list_memo_reactions", { memo: `memos/${id}` }]),
      ],
      program: () =>
        `const { memos } = await api.memo_list_memos({});
         const counts = [];
         for (const memo of memos.slice(0, 5)) counts.push((await api.memo_list_memo_reactions({ memo: memo.name })).reactions.length);
         return counts;`,
    },
  },
  {
    api: "GitHub",
    task: {
      label: "open issues of a repository, comments of the first three",
      steps: (name) => [
        [name("issues/list-for-repo"), { owner: "octo", repo: "hello" }],
        ...[1, 2, 3].map((n): [string, Record<string, unknown>] => [
          name("issues/list-comments"),
          { owner: "octo", repo: "hello", issue_number: n },
        ]),
      ],
      program: (name) =>
        `const issues = await api.${name("issues/list-for-repo")}({ owner: "octo", repo: "hello" });
         const out = [];
         for (const issue of issues.result.slice(0, 3)) {
           const comments = await api.${name("issues/list-comments")}({ owner: "octo", repo: "hello", issue_number: issue.number });
           out.push({ title: issue.title, comments: comments.result.length });
         }
         return out;`,
    },
  },
  {
    api: "GitHub",
    task: {
      label: "a repository's top contributor and their followers",
      steps: (name) => [
        [name("repos/get"), { owner: "octo", repo: "hello" }],
        [name("repos/list-contributors"), { owner: "octo", repo: "hello" }],
        [name("users/get-by-username"), { username: "user1" }],
      ],
      program: (name) =>
        `const repo = await api.${name("repos/get")}({ owner: "octo", repo: "hello" });
         const contributors = await api.${name("repos/list-contributors")}({ owner: "octo", repo: "hello" });
         const top = await api.${name("users/get-by-username")}({ username: contributors.result[0].login });
         return { repo: repo.full_name, top: top.login, followers: top.followers };`,
    },
  },
  {
    api: "GitHub",
    task: {
      label: "pull requests and the review comments of the first three",
      steps: (name) => [
        [name("pulls/list"), { owner: "octo", repo: "hello" }],
        ...[1, 2, 3].map((n): [string, Record<string, unknown>] => [
          name("pulls/list-review-comments"),
          { owner: "octo", repo: "hello", pull_number: n },
        ]),
      ],
      program: (name) =>
        `const pulls = await api.${name("pulls/list")}({ owner: "octo", repo: "hello" });
         const out = [];
         for (const pull of pulls.result.slice(0, 3))
           out.push({ title: pull.title, comments: (await api.${name("pulls/list-review-comments")}({ owner: "octo", repo: "hello", pull_number: pull.number })).result.length });
         return out;`,
    },
  },
];

/** GitHub's every operation as the generator builds them, with its search data. */
async function githubRegistry(): Promise<{ definitions: ToolDefinition[]; data: ReturnType<typeof discoveryData> }> {
  const { document } = await qualityDocument("github");
  const model = buildApiModel(document);
  const config = resolveConfig({ server: { name: "github" }, select: { all: true }, mode: "code" });
  const entries = selectOperations(model, config);
  const definitions = buildTools(model, entries, config).map(toolDefinition);
  const tagNotes = new Map(model.tags.map((tag) => [tag.name, firstSentence(tag.description)]));
  return {
    definitions,
    data: discoveryData(
      definitions,
      entries.map((entry) => entry.tags),
      [],
      tagNotes,
    ),
  };
}

/** The text a tool result puts before the model. */
function textBytes(result: CallToolResult): number {
  return result.content.reduce((sum, part) => sum + (part.type === "text" ? Buffer.byteLength(part.text) : 0), 0);
}

export async function benchCode(): Promise<string[]> {
  const upstream = createServer(respond);
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const baseUrl = new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`);
  const runtimeOf = (tools: readonly ToolDefinition[], discovery?: ReturnType<typeof discoveryData>): ToolRuntime =>
    createToolRuntime({
      identity: { name: "bench", version: "1" },
      tools,
      upstream: { baseUrl, timeoutMs: 10_000, maxResponseBytes: 10_000_000 },
      log: silentLogger,
      code: codeOf({ allowWrites: true, timeoutMs: 30_000 }),
      ...(discovery ? { discovery: discoveryOf(discovery, "beside") } : {}),
    });
  const caller = { headers: {} };
  const github = await githubRegistry();
  const runtimes = { Memos: runtimeOf(memosTools, undefined), GitHub: runtimeOf(github.definitions, github.data) };
  const byOperationId = new Map(github.definitions.map((tool) => [tool._meta.operationId ?? "", tool.name]));
  const name = (operationId: string) => byOperationId.get(operationId) ?? operationId;
  try {
    const engineStarts: number[] = [];
    for (let run = 0; run < 5; run++) {
      await closeSandbox();
      const start = performance.now();
      await warmSandbox();
      engineStarts.push(performance.now() - start);
    }
    const rows: string[][] = [];
    for (const { api, task } of TASKS) {
      const runtime = runtimes[api];
      const steps = task.steps(name);
      let stepBytes = 0;
      for (const [tool, args] of steps) {
        const result =
          api === "GitHub"
            ? await callByName(runtime, "call_operation", { name: tool, arguments: args }, caller)
            : await callByName(runtime, tool, args, caller);
        if (result.isError) throw new Error(`${task.label}: ${tool} failed: ${JSON.stringify(result.content)}`);
        stepBytes += textBytes(result);
      }
      const program = await callByName(runtime, "run_code", { code: task.program(name) }, caller);
      if (program.isError) throw new Error(`${task.label}: run_code failed: ${JSON.stringify(program.content)}`);
      const codeBytes = textBytes(program);
      rows.push([`${api}: ${task.label}`, String(steps.length), "1", String(stepBytes), String(codeBytes), fmt(stepBytes / codeBytes)]);
    }
    const latency = await oneCallLatency(runtimes.Memos, caller);
    const checked = await typeCheckCost(baseUrl, caller);
    return [
      table(
        [
          "task (same upstream)",
          "round trips, a call per step",
          "round trips, run_code",
          "bytes to the model, a call per step",
          "bytes to the model, run_code",
          "bytes, steps / code",
        ],
        rows,
      ),
      table(
        ["one operation (Memos memo_get_memo, 300 calls each, engine warm)", "p50 (ms)", "p90 (ms)"],
        [
          ["as its own tool", fmt(percentile(latency.direct, 50), 2), fmt(percentile(latency.direct, 90), 2)],
          ["in run_code", fmt(percentile(latency.code, 50), 2), fmt(percentile(latency.code, 90), 2)],
          ["added by run_code (target ≤ +5 ms p50)", fmt(median(latency.code) - median(latency.direct), 2), "—"],
          ["engine start (a worker thread and QuickJS, median of 5)", fmt(median(engineStarts), 1), "—"],
        ],
      ),
      table(
        ["code.typeCheck: a five-line Memos program, 200 runs each, alternating", "p50 (ms)", "p90 (ms)"],
        [
          ["run_code, unchecked", fmt(percentile(checked.plain, 50), 2), fmt(percentile(checked.plain, 90), 2)],
          ["run_code, checked first", fmt(percentile(checked.checked, 50), 2), fmt(percentile(checked.checked, 90), 2)],
          ["added by the check", fmt(median(checked.checked) - median(checked.plain), 2), "—"],
          ["the check's start (load TypeScript, parse the library and api, first check)", fmt(checked.startMs, 0), "—"],
          ["a program refused (a misspelt operation): the whole answer", fmt(median(checked.refused), 2), "—"],
          [`typescript installed (what a deployment adds; the runtime's install is about 37 MB)`, `${fmt(checked.installedMb, 1)} MB`, "—"],
        ],
      ),
    ];
  } finally {
    await closeSandbox();
    upstream.close();
  }
}

/** What `code.typeCheck` adds: a run checked and unchecked, the checker's start, a refusal, and the compiler's size. */
async function typeCheckCost(baseUrl: URL, caller: { headers: Record<string, string> }) {
  const runtimeWith = (typeCheck: boolean) =>
    createToolRuntime({
      identity: { name: "bench", version: "1" },
      tools: memosTools,
      upstream: { baseUrl, timeoutMs: 10_000, maxResponseBytes: 10_000_000 },
      log: silentLogger,
      code: codeOf({ timeoutMs: 30_000, typeCheck }),
    });
  const program = [
    "const page = await api.memo_list_memos({ pageSize: 5 });",
    "const first = page.memos[0];",
    "const comments = await api.memo_list_memo_comments({ memo: first.name });",
    "console.log(comments.memos.length);",
    "return { memo: first.name, comments: comments.memos.length };",
  ].join("\n");
  const start = performance.now();
  await checkerFor(memosTools).then((checker) => checker.check("return 1;"));
  const startMs = performance.now() - start;
  const [plainRuntime, checkedRuntime] = [runtimeWith(false), runtimeWith(true)];
  const plain: number[] = [];
  const checked: number[] = [];
  const refused: number[] = [];
  for (let run = 0; run < 220; run++) {
    const a = performance.now();
    await callByName(plainRuntime, "run_code", { code: program }, caller);
    const b = performance.now();
    await callByName(checkedRuntime, "run_code", { code: program }, caller);
    const c = performance.now();
    await callByName(checkedRuntime, "run_code", { code: program.replace("memo_list_memo_comments", "memo_list_memo_coments") }, caller);
    const d = performance.now();
    if (run < 20) continue;
    plain.push(b - a);
    checked.push(c - b);
    refused.push(d - c);
  }
  const compiler = dirname(fileURLToPath(import.meta.resolve("typescript/package.json")));
  return { plain, checked, refused, startMs, installedMb: folderBytes(compiler) / 1_048_576 };
}

/** Bytes of every file under a folder. */
function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

/** One call of the same operation as its own tool and from a one-line program, alternating, after a warm-up. */
async function oneCallLatency(runtime: ToolRuntime, caller: { headers: Record<string, string> }) {
  const direct: number[] = [];
  const code: number[] = [];
  const program = `return await api.memo_get_memo({ memo: "memos/1" });`;
  for (let run = 0; run < 330; run++) {
    const start = performance.now();
    await callByName(runtime, "memo_get_memo", { memo: "memos/1" }, caller);
    const middle = performance.now();
    await callByName(runtime, "run_code", { code: program }, caller);
    const end = performance.now();
    if (run < 30) continue;
    direct.push(middle - start);
    code.push(end - middle);
  }
  return { direct, code };
}
