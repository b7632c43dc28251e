import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type AuthDefinition, type Logger, silentLogger, startServer, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { testEnvironment } from "./memos-server.js";
import { sampleArguments } from "./sample-arguments.js";
import { startUpstream } from "./upstream.js";

/** A seeded pseudo-random source (mulberry32): the same seed drives the same calls. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Keys a hostile or careless upstream sends: ordinary names, a `constructor`, odd characters. */
const KEYS = ["id", "name", "data", "items", "constructor", "toString", "created_at", "ünïcode", "a b", "", "0", "null"];

/** Any JSON value, of any shape and nesting (to depth 5): what an upstream may really send. */
export function randomJson(random: () => number, depth = 0): unknown {
  const kind = Math.floor(random() * (depth >= 5 ? 5 : 7));
  if (kind === 0) return null;
  if (kind === 1) return random() < 0.5;
  if (kind === 2) return Math.round((random() - 0.5) * 1e6) / (random() < 0.5 ? 1 : 100);
  if (kind === 3)
    return ["", "text", "2024-01-01T00:00:00Z", "ünïcode ✓", "x".repeat(Math.floor(random() * 300))][Math.floor(random() * 5)];
  if (kind === 4) return random() < 0.5 ? [] : {};
  if (kind === 5) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
  const value: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 5); i > 0; i--) {
    Object.defineProperty(value, KEYS[Math.floor(random() * KEYS.length)] ?? "k", {
      value: randomJson(random, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return value;
}

/**
 * What driving every tool gave: calls made and upstream requests sent; the calls the SDK client threw on, the results
 * that came back as errors, and (apart) the calls refused before sending because the sample arguments did not fit.
 */
export interface DriveReport {
  calls: number;
  sent: number;
  throws: string[];
  errors: string[];
  refused: string[];
}

/**
 * Lists a server of these tools with the MCP SDK client and calls every one of them (sample arguments), `rounds`
 * times, against an upstream that answers each request with a random 2xx: JSON of any shape, or nothing at all.
 */
export async function driveEveryTool(
  tools: readonly ToolDefinition[],
  options: { seed: number; rounds?: number; auth?: AuthDefinition; log?: Logger },
): Promise<DriveReport> {
  const random = seeded(options.seed);
  let sent = 0;
  const upstream = await startUpstream((_, res) => {
    sent++;
    const status = [200, 200, 200, 201, 202, 204][Math.floor(random() * 6)] ?? 200;
    if (status === 204) {
      res.writeHead(204).end();
      return;
    }
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(randomJson(random)));
  });
  const server = await startServer({
    identity: { name: "drive", version: "1.0.0" },
    tools,
    ...(options.auth ? { auth: options.auth } : {}),
    log: options.log ?? silentLogger,
    environment: testEnvironment(upstream.url, { timeoutMs: 10_000 }),
  });
  const client = new Client({ name: "drive", version: "1.0.0" });
  const report: DriveReport = { calls: 0, sent: 0, throws: [], errors: [], refused: [] };
  try {
    await client.connect(new StreamableHTTPClientTransport(server.url), {});
    const { tools: listed } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (let round = 0; round < (options.rounds ?? 1); round++) {
      for (const listedTool of listed) {
        const tool = byName.get(listedTool.name);
        if (!tool) continue;
        report.calls++;
        try {
          const result = await client.callTool({ name: tool.name, arguments: sampleArguments(tool.inputSchema) });
          const text = JSON.stringify(result.content).slice(0, 300);
          if (result.isError) (text.includes("Invalid arguments for") ? report.refused : report.errors).push(`${tool.name}: ${text}`);
        } catch (error) {
          const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
          report.throws.push(`${tool.name}: ${error instanceof Error ? error.message : String(error)}${cause}`.slice(0, 300));
        }
      }
    }
  } finally {
    await client.close();
    await server.close();
    await upstream.close();
  }
  report.sent = sent;
  return report;
}
