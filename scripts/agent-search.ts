/**
 * A stand-in MCP client for a model in the loop: `agent-search <api> tools` prints the discovery tools as
 * `tools/list` shows them; `agent-search <api> <tool> '<json arguments>'` calls search_operations or
 * describe_operation over every operation of a labelled set's API and prints the answer's text as a model reads it.
 * With AGENT_LOG set, each call is appended there (JSON lines: api, tool, arguments, the names shown).
 */
import { appendFile } from "node:fs/promises";
import { DISCOVERY_TOOLS } from "oapi-mcp-gen-runtime/discovery";
import type { CallerCredentials } from "../runtime/call/credentials.js";
import type { ToolRuntime } from "../runtime/tools/tool-runtime-contract.js";
import { discoveryFor } from "./discovery-quality.js";

const [api, tool, json] = process.argv.slice(2);
if (!api || !tool) throw new Error("usage: agent-search <api> tools | <api> search_operations|describe_operation '<json>'");
const { service } = await discoveryFor(api);
if (tool === "tools") {
  for (const listed of service.listed) {
    if (listed.name === DISCOVERY_TOOLS.call) continue;
    console.log(`## ${listed.name}\n${listed.description}\ninputSchema: ${JSON.stringify(listed.inputSchema)}\n`);
  }
} else {
  if (tool !== DISCOVERY_TOOLS.search && tool !== DISCOVERY_TOOLS.describe)
    throw new Error(`only ${DISCOVERY_TOOLS.search} and ${DISCOVERY_TOOLS.describe}`);
  const args = JSON.parse(json ?? "{}") as Record<string, unknown>;
  const result = await service.call(undefined as unknown as ToolRuntime, tool, args, {} as CallerCredentials);
  const text = (result?.content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("\n");
  console.log(text);
  const log = process.env.AGENT_LOG;
  if (log) {
    const rows = (result?.structuredContent as { results?: { name: string }[] } | undefined)?.results ?? [];
    const names = tool === DISCOVERY_TOOLS.search ? rows.map((row) => row.name) : [String(args.name)];
    await appendFile(log, `${JSON.stringify({ api, tool, arguments: args, names })}\n`);
  }
}
