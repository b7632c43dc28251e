import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import ts from "typescript";
import { generateFromFile } from "../generator/generate.js";
import { writeOutput } from "../generator/output.js";
import { freePort } from "../scripts/prism.js";
import { GITHUB } from "./generation.js";
import { fmt, median, table } from "./stats.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Milliseconds from spawning a server process to its first successful `GET /health`. */
async function timeToHealthy(script: string, env: NodeJS.ProcessEnv): Promise<number> {
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
      if (ok) return performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    if (!exited) {
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
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
  const sample = async (script: string) =>
    median(
      await Promise.all([]).then(async () => {
        const times: number[] = [];
        for (let i = 0; i < runs; i++) times.push(await timeToHealthy(script, env));
        return times;
      }),
    );
  const baseline = await sample(bare);
  const memos = await sample(join(ROOT, "dist/generated/server.js"));
  const githubAll = await sample(join(github, "server.js"));
  await rm(github, { recursive: true, force: true });
  process.stdout.write(`## Generated server cold start (process start → /health OK, median of ${runs})\n\n`);
  return table(
    ["server", "ms", "bare node:http server (ms)", "ratio"],
    [
      ["Memos (17 tools)", fmt(memos, 0), fmt(baseline, 0), fmt(memos / baseline, 2)],
      ["GitHub (1,223 tools)", fmt(githubAll, 0), fmt(baseline, 0), fmt(githubAll / baseline, 2)],
    ],
  );
}

/** Tool-call overhead: the upstream called directly vs through the generated Memos server, under the same load. */
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
  const port = await freePort();
  const server = spawn(process.execPath, [join(ROOT, "dist/generated/server.js")], {
    env: { ...process.env, API_BASE_URL: upstreamUrl, PORT: String(port) },
    stdio: "ignore",
  });
  try {
    while (
      !(await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      await new Promise((r) => setTimeout(r, 20));
    const load = { connections: 32, duration: 10 };
    const direct = await autocannon({ url: `${upstreamUrl}/api/v1/memos?pageSize=1`, ...load });
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "memo_list_memos", arguments: { pageSize: 1 } },
    });
    const viaMcp = await autocannon({
      url: `http://127.0.0.1:${port}/mcp`,
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        authorization: "Bearer bench",
      },
      body: call,
      ...load,
    });
    if (viaMcp.non2xx > 0 || viaMcp.errors > 0) throw new Error(`tools/call load saw ${viaMcp.non2xx} non-2xx and ${viaMcp.errors} errors`);
    process.stdout.write("## Tool-call overhead (autocannon, 32 connections, 10 s each; upstream returns a fixed JSON body)\n\n");
    return table(
      ["path", "requests/s", "p50 (ms)", "p99 (ms)"],
      [
        ["(a) upstream directly", fmt(direct.requests.average, 0), fmt(direct.latency.p50, 1), fmt(direct.latency.p99, 1)],
        [
          "(b) tools/call via the generated Memos server",
          fmt(viaMcp.requests.average, 0),
          fmt(viaMcp.latency.p50, 1),
          fmt(viaMcp.latency.p99, 1),
        ],
        [
          "b / a",
          fmt(viaMcp.requests.average / direct.requests.average, 2),
          `+${fmt(viaMcp.latency.p50 - direct.latency.p50, 1)}`,
          `+${fmt(viaMcp.latency.p99 - direct.latency.p99, 1)}`,
        ],
      ],
    );
  } finally {
    server.kill();
    upstream.close();
  }
}
