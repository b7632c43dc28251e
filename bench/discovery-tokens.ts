import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { DISCOVERY_TOOLS } from "oapi-mcp-gen-runtime/discovery";
import type { CallerCredentials } from "../runtime/call/credentials.js";
import type { ToolRuntime } from "../runtime/tools/tool-runtime-contract.js";
import { discoveryFor } from "../scripts/discovery-quality.js";
import { fmt, table } from "./stats.js";

/** One search and one describe, as a model reads them, on one API. */
const READS = [
  { api: "github", query: "list open pull requests in a repository", describe: "pulls/create" },
  { api: "stripe", query: "refund a payment", describe: "PostCustomers" },
] as const;

/**
 * What the same calls cost at 9d8f810, before the compact text and describe's result on request (measured with this
 * file there: the text was the JSON again, and describe showed the result's schema): text block, structuredContent.
 */
const BEFORE: Readonly<Record<string, readonly [number, number]>> = {
  "github search": [918, 918],
  "github describe": [1998, 0],
  "stripe search": [677, 677],
  "stripe describe": [2080, 0],
};

/** Tokens (o200k_base) of a result's text blocks and of its structuredContent as JSON. */
function tokensOf(result: CallToolResult | undefined): { text: number; structured: number } {
  const text = (result?.content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("\n");
  const structured = result?.structuredContent === undefined ? "" : JSON.stringify(result.structuredContent);
  return { text: countTokens(text), structured: structured === "" ? 0 : countTokens(structured) };
}

/** Tokens a model reads for one 10-result `search_operations` and one `describe_operation`, on GitHub and Stripe. */
export async function benchDiscoveryTokens(): Promise<string> {
  const rows: string[][] = [];
  for (const read of READS) {
    const { service } = await discoveryFor(read.api);
    const search = await service.call(noRuntime, DISCOVERY_TOOLS.search, { query: read.query, limit: 10 }, noCaller);
    const describe = await service.call(noRuntime, DISCOVERY_TOOLS.describe, { name: read.describe }, noCaller);
    for (const [kind, what, result] of [
      ["search", `search "${read.query}" (10 results)`, search],
      ["describe", `describe ${read.describe}`, describe],
    ] as const) {
      const { text, structured } = tokensOf(result);
      const [beforeText = 0, beforeStructured = 0] = BEFORE[`${read.api} ${kind}`] ?? [];
      const ratio = (now: number, then: number) => `${now} (${then > 0 ? fmt(now / then, 2) : "—"})`;
      rows.push([
        read.api,
        what,
        `${beforeText} / ${beforeText + beforeStructured}`,
        ratio(text, beforeText),
        ratio(text + structured, beforeText + beforeStructured),
      ]);
    }
  }
  return `### Tokens a model reads from the discovery tools (o200k_base; target: half or less)\n\n${table(
    ["API", "call", "before (9d8f810): text / text and structuredContent", "now: text (ratio)", "now: text and structuredContent (ratio)"],
    rows,
  )}\n\nA client passes the text to its model (most do) or the structured content; describe_operation has no structured copy.`;
}

/** The discovery tools' search and describe read neither the runtime nor the caller. */
const noRuntime = undefined as unknown as ToolRuntime;
const noCaller = {} as CallerCredentials;
