/**
 * Opt-in soak: `npm run soak -- [--minutes 10]`. Mixed tools/call load on the generated Memos server, and repeated
 * load_openapi plus searches on the search server, each as its own process on loopback. Reports errors and the RSS
 * growth of each server after a warm-up minute, median against median (target: 0 errors, ≤ 10 %).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "./free-port.js";
import { connectClient } from "./mcp-client.js";

const { values } = parseArgs({ options: { minutes: { type: "string", default: "10" } } });
const durationMs = Number(values.minutes) * 60_000;
const warmUpMs = Math.min(60_000, durationMs / 5);
const MEMO = { name: "memos/a1", state: "NORMAL", content: "soak", visibility: "PRIVATE" };
const MUSEUM = fileURLToPath(new URL("../../test/fixtures/redocly-museum/openapi.yaml", import.meta.url));

/** The resident set of a process, from /proc (Linux). */
function rssKiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

async function started(args: string[], env: NodeJS.ProcessEnv, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: "ignore" });
  while (
    !(await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 50));
  return child;
}

/** The middle value of some samples. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function soak(
  label: string,
  child: ChildProcess,
  work: () => Promise<boolean>,
): Promise<{ label: string; calls: number; errors: number; growth: number }> {
  const start = Date.now();
  const end = start + durationMs;
  let calls = 0;
  let errors = 0;
  // RSS is sampled every second: growth compares the median of the window after warm-up with that of the last window,
  // so one sample taken just before the server's garbage collector runs cannot decide the result.
  const samples: { at: number; kib: number }[] = [];
  const sampler = setInterval(() => samples.push({ at: Date.now(), kib: rssKiB(child) }), 1_000);
  const lanes = Array.from({ length: 8 }, async () => {
    while (Date.now() < end) {
      calls++;
      if (!(await work().catch(() => false))) errors++;
    }
  });
  await Promise.all(lanes);
  clearInterval(sampler);
  const window = Math.min(30_000, (durationMs - warmUpMs) / 3);
  const warm = median(samples.filter((s) => s.at >= start + warmUpMs && s.at < start + warmUpMs + window).map((s) => s.kib));
  const final = median(samples.filter((s) => s.at >= end - window).map((s) => s.kib));
  return { label, calls, errors, growth: (final - warm) / warm };
}

const upstream = createServer((_, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(MEMO));
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const memosPort = await freePort();
const memos = await started(
  [fileURLToPath(new URL("../generated/server.js", import.meta.url))],
  { API_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, PORT: String(memosPort) },
  memosPort,
);
const memosClient = await connectClient(new URL(`http://127.0.0.1:${memosPort}/mcp`), { Authorization: "Bearer soak" });
const searchPort = await freePort();
const search = await started(
  [
    fileURLToPath(new URL("../generator/cli/cli.js", import.meta.url)),
    "search",
    "--memory",
    "--port",
    String(searchPort),
    "--files-root",
    fileURLToPath(new URL("../../", import.meta.url)),
  ],
  {},
  searchPort,
);
const searchClient = await connectClient(new URL(`http://127.0.0.1:${searchPort}/mcp`));
await searchClient.callTool({ name: "load_openapi", arguments: { name: "museum0", url: MUSEUM } });
let n = 0;
const results = await Promise.all([
  soak("generated Memos server (mixed tools/call)", memos, async () => {
    const tool = ["memo_get_memo", "memo_list_memos", "memo_update_memo"][n++ % 3] as string;
    const args =
      tool === "memo_list_memos"
        ? { pageSize: 5 }
        : tool === "memo_get_memo"
          ? { memo: `memos/m${n}` }
          : { memo: "m1", body: { content: `v${n}` } };
    return !(await memosClient.callTool({ name: tool, arguments: args })).isError;
  }),
  soak("search server (load_openapi + searches)", search, async () => {
    const i = n++;
    if (i % 20 === 0)
      return !(await searchClient.callTool({ name: "load_openapi", arguments: { name: `museum${i % 3}`, url: MUSEUM } })).isError;
    return !(
      await searchClient.callTool({
        name: "search_endpoints",
        arguments: { name: "museum0", keyword: ["tickets", "events", "hours"][i % 3] },
      })
    ).isError;
  }),
]);
await memosClient.close();
await searchClient.close();
memos.kill();
search.kill();
upstream.close();
let failed = 0;
for (const { label, calls, errors, growth } of results) {
  const ok = errors === 0 && growth <= 0.1;
  if (!ok) failed++;
  process.stdout.write(`${label}: ${calls} calls, ${errors} errors, RSS growth after warm-up ${(growth * 100).toFixed(1)} %\n`);
}
process.stdout.write(`soak: ${results.length - failed} passed, ${failed} failed\n`);
process.exitCode = failed > 0 ? 1 : 0;
