import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import ts from "typescript";
import { generateFromFile } from "../generator/generate.js";
import { writeOutput } from "../generator/output/index.js";
import { freePort } from "../scripts/free-port.js";
import { GITHUB } from "./generation.js";
import { fmt, median, table } from "./stats.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A first MCP exchange after `/health`: given the port, resolves once it is answered. */
type FirstExchange = (port: number) => Promise<void>;

/**
 * Milliseconds from spawning a server process to its first successful `GET /health`, and, when `exchange` is given,
 * to that exchange answered right after (what a client's first request waits for).
 */
async function timeToHealthy(script: string, env: NodeJS.ProcessEnv, exchange?: FirstExchange): Promise<[number, number, number]> {
  const port = await freePort();
  const start = performance.now();
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env, PORT: String(port) }, stdio: "ignore" });
  let exited = false;
  child.once("exit", () => (exited = true));
  try {
    for (;;) {
      if (exited) throw new Error(`${script} exited before /health answered`);
      if (performance.now() - start > 30_000) throw new Error(`${script} did not answer /health within 30 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const healthy = performance.now() - start;
    // A generated server listens before its tool modules load: /health says "loading" until they have.
    while (exchange && (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.text())).includes('"status":"loading"')) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const loaded = performance.now() - start;
    await exchange?.(port);
    return [healthy, loaded, performance.now() - start];
  } finally {
    if (!exited) {
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
}

/** `initialize`, then a `tools/call` of `tool` (the upstream is unreachable: its error result is still an answer). */
function initializeAndCall(tool: string): FirstExchange {
  return async (port) => {
    const post = async (message: object) => {
      const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }),
      });
      if (!response.ok) throw new Error(`first exchange failed: HTTP ${response.status}`);
      await response.text();
    };
    await post({
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    });
    await post({ method: "tools/call", params: { name: tool, arguments: {} } });
  };
}

/** Compiles a generated TypeScript tree to JavaScript beside it (transpile only; the tests type-check it). */
async function transpileTree(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const path = join(entry.parentPath, entry.name);
    const { outputText } = ts.transpileModule(await readFile(path, "utf8"), {
      // ESNext, not NodeNext: transpileModule has no package.json to tell it the files are ES modules.
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    await writeFile(path.replace(/\.ts$/, ".js"), outputText);
  }
}

/** Generated-server cold start (Memos and GitHub-all) against a bare node:http server started the same way. */
export async function benchStartup(): Promise<string> {
  const bare = join(ROOT, ".tmp/bench-bare-server.mjs");
  await mkdir(dirname(bare), { recursive: true });
  await writeFile(
    bare,
    `import { createServer } from "node:http";\ncreateServer((q, s) => s.end("{}")).listen(Number(process.env.PORT), "127.0.0.1");\n`,
  );
  const github = join(ROOT, ".tmp/bench-github");
  await rm(github, { recursive: true, force: true });
  await writeOutput(github, (await generateFromFile(GITHUB, { server: { name: "github" }, select: { all: true } })).files);
  await transpileTree(github);
  const env = { API_BASE_URL: "http://127.0.0.1:9" };
  const runs = 7;
  const sample = async (script: string, exchange?: FirstExchange) => {
    const times: [number, number, number][] = [];
    for (let i = 0; i < runs; i++) times.push(await timeToHealthy(script, env, exchange));
    return [0, 1, 2].map((column) => median(times.map((run) => run[column] ?? Number.NaN)));
  };
  const [baseline] = await sample(bare);
  const memos = await sample(join(ROOT, "dist/generated/server.js"), initializeAndCall("memo_list_memos"));
  const githubAll = await sample(join(github, "server.js"), initializeAndCall("repos_get"));
  await rm(github, { recursive: true, force: true });
  process.stdout.write(`## Generated server cold start (process start → /health OK, median of ${runs})\n\n`);
  return table(
    [
      "server",
      "→ /health (ms)",
      "bare node:http server (ms)",
      "ratio (target Memos ≤ 2, GitHub ≤ 4)",
      "→ tools loaded (ms)",
      "ratio",
      "→ then initialize + first tools/call answered (ms)",
    ],
    [memos, githubAll].map((times, index) => [
      index === 0 ? "Memos (17 tools)" : "GitHub (1,223 tools)",
      fmt(times[0] ?? Number.NaN, 0),
      fmt(baseline ?? Number.NaN, 0),
      fmt((times[0] ?? Number.NaN) / (baseline ?? Number.NaN), 2),
      fmt(times[1] ?? Number.NaN, 0),
      fmt((times[1] ?? Number.NaN) / (baseline ?? Number.NaN), 2),
      fmt(times[2] ?? Number.NaN, 0),
    ]),
  );
}

/** A server process on a free port (its environment may depend on it), ready once `ready` answers; `stop` kills it and waits. */
export async function startProcess(
  script: string,
  env: NodeJS.ProcessEnv | ((port: number) => NodeJS.ProcessEnv),
  ready: (port: number) => Promise<boolean>,
) {
  const port = await freePort();
  const own = typeof env === "function" ? env(port) : env;
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...own, PORT: String(port) }, stdio: "ignore" });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const deadline = performance.now() + 30_000;
  while (!(await ready(port).catch(() => false))) {
    if (performance.now() > deadline || child.exitCode !== null) throw new Error(`${script} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    port,
    stop: async () => {
      child.kill();
      await exited;
    },
  };
}

/** Milliseconds of sequential round trips (one connection, keep-alive): median and p99 after a warm-up. */
export async function sequentialLatency(send: () => Promise<void>, count: number): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 200; i++) await send();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await send();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: median(times), p99: times[Math.floor(times.length * 0.99)] ?? Number.NaN };
}

/** A difference with its sign. */
export const signed = (value: number, digits: number) => `${value < 0 ? "−" : "+"}${fmt(Math.abs(value), digits)}`;

const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
  authorization: "Bearer bench",
};

/**
 * Tool-call overhead: the generated Memos server against a bare Node forwarder (parse the JSON-RPC body, the same
 * upstream `fetch`, write the result) under the same load, with the upstream called directly for scale.
 */
export async function benchToolCall(): Promise<string> {
  const body = JSON.stringify({
    memos: [{ name: "memos/a1", state: "NORMAL", content: "hello", visibility: "PRIVATE" }],
    nextPageToken: "",
  });
  const upstream = createServer((_, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const env = { API_BASE_URL: upstreamUrl };
  const call = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "memo_list_memos", arguments: { pageSize: 1 } },
  });
  const post = (port: number) => async () => {
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, { method: "POST", headers: MCP_HEADERS, body: call });
    const text = await response.text();
    if (!response.ok || !text.includes('"structuredContent"')) throw new Error(`tools/call failed: ${response.status} ${text}`);
  };
  const forwarder = await startProcess(join(ROOT, "dist/bench/forwarder.js"), env, async (port) => {
    await post(port)();
    return true;
  });
  const healthy = async (port: number) => fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok);
  const server = await startProcess(join(ROOT, "dist/generated/server.js"), env, healthy);
  const onFetch = await startProcess(join(ROOT, "dist/bench/fetch-server.js"), env, healthy);
  // The same server with metrics and traces on: spans go to an OTLP/HTTP receiver that reads and drops them.
  const sink = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const telemetry = {
    ...env,
    METRICS_TOKEN: "bench-metrics-token-0123456789",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}`,
  };
  const observed = await startProcess(join(ROOT, "dist/generated/server.js"), telemetry, healthy);
  try {
    const load = { connections: 32, duration: 10 };
    const loaded = async (port: number, duration = load.duration) => {
      const result = await autocannon({
        url: `http://127.0.0.1:${port}/mcp`,
        method: "POST",
        headers: MCP_HEADERS,
        body: call,
        ...load,
        duration,
      });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`tools/call load saw ${result.non2xx} non-2xx and ${result.errors} errors`);
      return result;
    };
    const direct = await autocannon({ url: `${upstreamUrl}/api/v1/memos?pageSize=1`, ...load });
    // The forwarder, the server and the server with telemetry take turns, three rounds of 5 s: each keeps its best round,
    // so a noisy moment on a shared machine does not decide a ratio.
    const rounds: Record<"bare" | "ours" | "withTelemetry", autocannon.Result[]> = { bare: [], ours: [], withTelemetry: [] };
    for (let round = 0; round < 3; round++) {
      rounds.bare.push(await loaded(forwarder.port, 5));
      rounds.ours.push(await loaded(server.port, 5));
      rounds.withTelemetry.push(await loaded(observed.port, 5));
    }
    const best = (results: autocannon.Result[]) => results.reduce((a, b) => (b.requests.average > a.requests.average ? b : a));
    const bare = best(rounds.bare);
    const ours = best(rounds.ours);
    const withTelemetry = best(rounds.withTelemetry);
    const viaFetch = await loaded(onFetch.port);
    const scraped = await fetch(`http://127.0.0.1:${observed.port}/metrics`, {
      headers: { authorization: `Bearer ${telemetry.METRICS_TOKEN}` },
    });
    if (!(await scraped.text()).includes('mcp_tool_calls_total{tool="memo_list_memos",outcome="ok"}'))
      throw new Error("no metrics counted");
    const bareOne = await sequentialLatency(post(forwarder.port), 2000);
    const oursOne = await sequentialLatency(post(server.port), 2000);
    const observedOne = await sequentialLatency(post(observed.port), 2000);
    const row = (label: string, result: autocannon.Result) => [
      label,
      fmt(result.requests.average, 0),
      fmt(result.latency.p50, 1),
      fmt(result.latency.p99, 1),
    ];
    process.stdout.write("## Tool-call overhead (upstream returns a fixed JSON body; validation and Origin/Host checks on)\n\n");
    return [
      `32 connections (autocannon): f, b and t the best of three alternating 5 s rounds, a and b′ one of 10 s:\n\n${table(
        ["path", "requests/s", "p50 (ms)", "p99 (ms)"],
        [
          row("(a) upstream directly", direct),
          row("(f) bare Node forwarder (baseline)", bare),
          row("(b) tools/call via the generated Memos server", ours),
          [
            "b / f (target ≥ 0.7)",
            fmt(ours.requests.average / bare.requests.average, 2),
            signed(ours.latency.p50 - bare.latency.p50, 1),
            signed(ours.latency.p99 - bare.latency.p99, 1),
          ],
          row("(t) the same server, metrics and traces on (OTLP to a local receiver)", withTelemetry),
          [
            "t / f (target ≥ 1.0)",
            fmt(withTelemetry.requests.average / bare.requests.average, 2),
            signed(withTelemetry.latency.p50 - bare.latency.p50, 1),
            signed(withTelemetry.latency.p99 - bare.latency.p99, 1),
          ],
          row("(b′) the same server calling upstream with fetch", viaFetch),
          ["b / b′ (the runtime's own upstream client against fetch)", fmt(ours.requests.average / viaFetch.requests.average, 2), "", ""],
        ],
      )}`,
      `1 connection, 2,000 sequential calls (fetch, keep-alive):\n\n${table(
        ["path", "p50 (ms)", "p99 (ms)"],
        [
          ["(f) bare Node forwarder (baseline)", fmt(bareOne.p50, 2), fmt(bareOne.p99, 2)],
          ["(b) generated Memos server", fmt(oursOne.p50, 2), fmt(oursOne.p99, 2)],
          ["b − f (target ≤ +1 ms at p50)", signed(oursOne.p50 - bareOne.p50, 2), signed(oursOne.p99 - bareOne.p99, 2)],
          ["(t) metrics and traces on", fmt(observedOne.p50, 2), fmt(observedOne.p99, 2)],
          ["t − f", signed(observedOne.p50 - bareOne.p50, 2), signed(observedOne.p99 - bareOne.p99, 2)],
        ],
      )}`,
    ].join("\n\n");
  } finally {
    await Promise.all([forwarder.stop(), server.stop(), onFetch.stop(), observed.stop()]);
    upstream.close();
    sink.close();
  }
}
