/**
 * The embedded default: the committed Memos server in front of a Prism mock of the Memos API,
 * driven by a real MCP client. Run with `npm run demo`.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { silentLogger, startServer } from "oapi-mcp-gen-runtime";
import { serverIdentity, tools } from "../generated/index.js";
import { freePort } from "./free-port.js";
import { connectClient } from "./mcp-client.js";
import { startPrism } from "./prism.js";

const spec = new URL("../../examples/memos/openapi.yaml", import.meta.url).pathname;

/** Calls a tool and prints its structured result (or its error). */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await client.callTool({ name, arguments: args });
  const shown = result.isError ? { isError: true, content: result.content } : { structuredContent: result.structuredContent };
  const text = JSON.stringify(shown);
  process.stdout.write(`tools/call ${name} ${JSON.stringify(args)}\n  → ${text.length > 240 ? `${text.slice(0, 240)}…` : text}\n`);
}

const prism = await startPrism(spec);
const server = await startServer({
  identity: serverIdentity,
  tools,
  log: silentLogger,
  environment: {
    apiBaseUrl: prism.url,
    host: "127.0.0.1",
    port: await freePort(),
    allowedOrigins: new Set(),
    timeoutMs: 10_000,
    maxResponseBytes: 10 * 1024 * 1024,
    maxRequestBytes: 4 * 1024 * 1024,
    maxUploadBytes: 25 * 1024 * 1024,
  },
});
let client: Client | undefined;
try {
  process.stdout.write(`Prism mock of the Memos API: ${prism.url.href}\nGenerated Memos MCP server: ${server.url.href}\n\n`);
  client = await connectClient(server.url, { Authorization: "Bearer memos_pat_demo" });
  const { tools: listed } = await client.listTools();
  process.stdout.write(`tools/list → ${listed.length} tools:\n  ${listed.map((tool) => tool.name).join("\n  ")}\n\n`);
  await call(client, "memo_list_memos", { pageSize: 2 });
  await call(client, "memo_get_memo", { memo: "memos/abc123" });
  await call(client, "memo_create_memo", { body: { content: "Hello from MCP", state: "NORMAL", visibility: "PRIVATE" } });
  await call(client, "memo_delete_memo", { memo: "abc123" });
  await call(client, "memo_create_memo", {});
  const foreign = await fetch(server.url, {
    method: "POST",
    headers: { Origin: "http://evil.example", "content-type": "application/json" },
    body: "{}",
  });
  process.stdout.write(`\nPOST /mcp with Origin: http://evil.example → ${foreign.status} ${await foreign.text()}\n`);
} finally {
  await client?.close();
  await server.close();
  await prism.stop();
}
