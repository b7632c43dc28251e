/**
 * Opt-in protocol fuzz: `npm run fuzz -- [--count 10000] [--seed 1]`. Sends generated request bodies (random JSON,
 * mutated JSON-RPC, random tool arguments, junk bytes) to the generated Memos server on loopback and counts
 * crashes (the process dies), empty answers and 5xx responses; then gives every search tool argument long, deep and
 * unicode strings (`fuzz-search.ts`). Prints "N passed, N failed".
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { freePort } from "./free-port.js";
import { fuzzSearch } from "./fuzz-search.js";

const { values } = parseArgs({ options: { count: { type: "string", default: "10000" }, seed: { type: "string", default: "1" } } });
let state = Number(values.seed) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const TOOLS = ["memo_list_memos", "memo_get_memo", "memo_create_memo", "memo_update_memo", "nope", "", "__proto__"];

function value(depth = 0): unknown {
  const kind = Math.floor(random() * (depth > 4 ? 5 : 8));
  if (kind === 0) return null;
  if (kind === 1) return random() < 0.5;
  if (kind === 2) return Math.floor(random() * 2 ** 40) * (random() < 0.5 ? -1 : 1);
  if (kind === 3)
    return pick(["", "../..", "\r\n", "%2e%2e", "memos/x", "\u0000", "😀".repeat(50), "x".repeat(Math.floor(random() * 5000))]);
  if (kind === 4) return random();
  if (kind === 5) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
  return Object.fromEntries(
    Array.from({ length: Math.floor(random() * 4) }, () => [
      pick(["memo", "pageSize", "body", "content", "__proto__", "constructor", "filter", "x"]),
      value(depth + 1),
    ]),
  );
}

function body(): string {
  const kind = Math.floor(random() * 6);
  if (kind === 0) return JSON.stringify(value());
  if (kind === 1)
    return Buffer.from(Array.from({ length: Math.floor(random() * 200) }, () => Math.floor(random() * 256))).toString("latin1");
  if (kind === 2) return JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "ping" }, value()]);
  const message: Record<string, unknown> = {
    jsonrpc: pick(["2.0", "1.0", 2]),
    id: pick([1, "a", null, {}, 1.5]),
    method: pick(["tools/call", "tools/list", "ping", "initialize", "x"]),
  };
  message.params = kind === 3 ? value() : { name: pick(TOOLS), arguments: value() };
  const text = JSON.stringify(message);
  return kind === 5 ? text.slice(0, Math.floor(random() * text.length)) : text;
}

const upstream = createServer((_, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end('{"memos":[],"nextPageToken":""}');
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
const port = await freePort();
const server = spawn(process.execPath, [fileURLToPath(new URL("../generated/server.js", import.meta.url))], {
  env: {
    ...process.env,
    API_BASE_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    PORT: String(port),
    UPSTREAM_TIMEOUT_MS: "2000",
  },
  stdio: "ignore",
});
let crashed = false;
server.on("exit", () => (crashed = true));
while (
  !(await fetch(`http://127.0.0.1:${port}/health`).then(
    (r) => r.ok,
    () => false,
  ))
)
  await new Promise((r) => setTimeout(r, 20));
const total = Number(values.count);
let passed = 0;
const failures: string[] = [];
for (let i = 0; i < total && !crashed; i++) {
  const sent = body();
  const contentType = random() < 0.9 ? "application/json" : pick(["text/plain", "", "application/json; charset=latin1"]);
  try {
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: "POST",
      headers: { "content-type": contentType, accept: "application/json, text/event-stream" },
      body: sent,
    });
    const text = await response.text();
    // 202 with no body is the specified answer to input that holds no requests (notifications, responses, `[]`).
    if (response.status >= 500 || (text === "" && response.status !== 202))
      failures.push(`${i}: ${response.status} ${text.slice(0, 80)} ← ${sent.slice(0, 80)}`);
    else passed++;
  } catch (error) {
    failures.push(`${i}: ${(error as Error).message}`);
  }
}
if (crashed) failures.push("the server process died");
server.kill();
upstream.close();
const search = await fuzzSearch();
passed += search.passed;
failures.push(...search.failures);
for (const failure of failures.slice(0, 20)) process.stdout.write(`${failure}\n`);
process.stdout.write(`fuzz: ${passed} passed, ${failures.length} failed\n`);
process.exitCode = failures.length > 0 ? 1 : 0;
