/**
 * The search server's part of `npm run fuzz`: every string argument of every search tool gets long, deep and unicode
 * values (and the limits ±1) while `/health` is polled; any call that fails at the transport, takes longer than its
 * ceiling or leaves the server unhealthy is a failure.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { SEARCH_TOOLS } from "../search/tools/index.js";
import { freePort } from "./free-port.js";
import { connectClient } from "./mcp-client.js";

const MUSEUM = fileURLToPath(new URL("../../test/fixtures/redocly-museum/openapi.yaml", import.meta.url));
/** A generous ceiling for one call: bounded arguments answer in milliseconds. */
const CALL_CEILING_MS = 5_000;

/** Hostile values for a string argument with a given maximum length. */
function hostileStrings(maxLength: number | undefined): unknown[] {
  const limit = maxLength ?? 1_000;
  let deep: unknown = "x";
  for (let depth = 0; depth < 2_000; depth++) deep = [deep];
  return [
    "A".repeat(limit),
    "a".repeat(limit + 1),
    "Ab".repeat(50_000),
    "/".repeat(80_000),
    "{".repeat(limit),
    "😀".repeat(Math.ceil(limit / 2)),
    "e\u0301".repeat(Math.ceil(limit / 2)),
    "\u202eevil\u202c\u2028\u2029\u0000\u001b[31m",
    "\ud800\udfff\ud800",
    "__proto__",
    "constructor",
    "../../../../etc/passwd",
    "%2e%2e%2f".repeat(100),
    deep,
    { nested: deep },
    "x".repeat(1_000_000),
  ];
}

/** Runs the search phase; returns the failures. */
export async function fuzzSearch(): Promise<{ passed: number; failures: string[] }> {
  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      fileURLToPath(new URL("../generator/cli/cli.js", import.meta.url)),
      "search",
      "--memory",
      "--port",
      String(port),
      "--load",
      `museum=${MUSEUM}`,
    ],
    { stdio: "ignore" },
  );
  let crashed = false;
  server.on("exit", () => (crashed = true));
  const health = `http://127.0.0.1:${port}/health`;
  while (
    !(await fetch(health).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await new Promise((r) => setTimeout(r, 20));
  const client = await connectClient(new URL(`http://127.0.0.1:${port}/mcp`));
  const failures: string[] = [];
  let passed = 0;
  try {
    for (const tool of SEARCH_TOOLS) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string; maxLength?: number }>;
      for (const [argument, schema] of Object.entries(properties)) {
        if (schema.type !== "string") continue;
        for (const hostile of hostileStrings(schema.maxLength)) {
          const args: Record<string, unknown> = { name: "museum", base: "museum", target: "museum", [argument]: hostile };
          const started = performance.now();
          const label = `${tool.name}.${argument} (${typeof hostile === "string" ? `${hostile.length} chars` : "nested"})`;
          try {
            await client.callTool({ name: tool.name, arguments: args }, undefined, { timeout: CALL_CEILING_MS * 2 });
            const ms = performance.now() - started;
            const healthy = await fetch(health).then(
              (r) => r.ok,
              () => false,
            );
            if (ms > CALL_CEILING_MS) failures.push(`${label}: took ${Math.round(ms)} ms`);
            else if (!healthy) failures.push(`${label}: /health stopped answering`);
            else passed++;
          } catch (error) {
            const message = (error as Error).message;
            // Arguments nested past the servers' limit get -32602 naming it: the answer the protocol asks for.
            if (typeof hostile !== "string" && /-32602.*nested deeper than \d+ levels/.test(message)) passed++;
            else failures.push(`${label}: ${message.slice(0, 120)}`);
          }
          if (crashed) return { passed, failures: [...failures, "the search server process died"] };
        }
      }
    }
  } finally {
    await client.close().catch(() => {});
    server.kill();
  }
  return { passed, failures };
}
