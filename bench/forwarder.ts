/**
 * The tool-call baseline: a bare `node:http` server that parses a JSON-RPC `tools/call` for `memo_list_memos`, makes
 * the upstream call with `fetch` and writes the JSON-RPC result. No MCP, no validation: the limit of a fetch-based
 * proxy on this machine (the generated server calls upstream over pooled `node:http` connections, which cost less than
 * `fetch`, so it may beat this). Run as its own process with PORT and API_BASE_URL.
 */
import { createServer } from "node:http";

const base = new URL(process.env.API_BASE_URL ?? "http://127.0.0.1:9");

createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const url = new URL("api/v1/memos", `${base.href.replace(/\/?$/, "/")}`);
  url.searchParams.set("pageSize", String(message.params.arguments.pageSize));
  const upstream = await fetch(url, {
    headers: { accept: "application/json", ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) },
  });
  const structuredContent = await upstream.json();
  const text = JSON.stringify({
    jsonrpc: "2.0",
    id: message.id,
    result: { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent },
  });
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}).listen(Number(process.env.PORT), "127.0.0.1");
