import { excerpt } from "../base/suggest.js";
import type { ToolAnnotations, ToolDefinition } from "../base/tool.js";
import { DESCRIBE_OPERATION, describeToolDefinition, READ_ONLY } from "../tools/describe-operation.js";
import type { ServedTool } from "../tools/tool-runtime-contract.js";
import { type ApiPart, partsSentence } from "./api-parts.js";

/** The names of the three tools a discovery-mode server lists. */
export const DISCOVERY_TOOLS = {
  search: "search_operations",
  describe: DESCRIBE_OPERATION,
  call: "call_operation",
} as const;

/** The HTTP methods `search_operations` filters by. */
export const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

/** The most results one `search_operations` page holds. */
export const MAX_SEARCH_LIMIT = 50;

/** The annotations `call_operation` carries: the most cautious of the operations it can call. */
export function mostCautious(tools: Iterable<ToolDefinition>): ToolAnnotations {
  let readOnly = true;
  let destructive = false;
  let idempotent = true;
  let openWorld = false;
  for (const { annotations } of tools) {
    readOnly &&= annotations.readOnlyHint === true;
    destructive ||= annotations.destructiveHint !== false && annotations.readOnlyHint !== true;
    idempotent &&= annotations.idempotentHint === true;
    openWorld ||= annotations.openWorldHint !== false;
  }
  return { readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: openWorld };
}

/**
 * Example requests for this API's search: the titles of the first operation that changes data and the first that
 * reads (`e.g. "create a customer", "list all charges"`), from its most central part when it has parts, so a model
 * sees this API's words, not another's.
 */
function searchExamples(operations: readonly ToolDefinition[], central?: ApiPart): string {
  const example = (tool: ToolDefinition | undefined) => (tool ? JSON.stringify(wholeWords(excerpt(asAsked(tool.title), 48))) : undefined);
  const inPart = central?.members.flatMap((place) => operations[place] ?? []) ?? [];
  const from = inPart.length > 0 ? inPart : operations;
  const picked = [
    example(from.find((tool) => !tool.annotations.readOnlyHint) ?? operations.find((tool) => !tool.annotations.readOnlyHint)),
    example(from.find((tool) => tool.annotations.readOnlyHint) ?? operations.find((tool) => tool.annotations.readOnlyHint)),
  ].filter((text): text is string => text !== undefined && text !== '""');
  return picked.length > 0 ? ` (e.g. ${picked.join(", ")})` : "";
}

/** A summary as a request reads: capitalised words in lower case (`Account Update` → `account update`), acronyms kept. */
function asAsked(title: string): string {
  return title.replace(/\b[A-Z][a-z]+\b/g, (word) => word.toLowerCase());
}

/** A cut text ends at a word: `…collaboration dom…` becomes `…collaboration…`. */
function wholeWords(text: string): string {
  if (!text.endsWith("…")) return text;
  const space = text.lastIndexOf(" ");
  return space > 0 ? `${text.slice(0, space)}…` : text;
}

/** How discovery stands beside code mode: no code mode, `run_code` beside `call_operation`, or in its place. */
export type CodeBeside = "none" | "beside" | "instead";

/** Where code mode's settings put `run_code` against `call_operation` (`replacesCall`: in its place). */
export function codeBeside(code: { readonly replacesCall?: boolean } | undefined): CodeBeside {
  if (!code) return "none";
  return code.replacesCall ? "instead" : "beside";
}

/**
 * Whether a parameter `count` of `total` operations require is one nearly every operation needs (an account or tenant
 * id): at least 80% of them, and at least five. `init` proposes such parameters as the server's to supply.
 */
export function neededOnEveryCall(count: number, total: number): boolean {
  return count >= 5 && count >= total * 0.8;
}

/**
 * Where nearly every operation requires the same argument (Twilio's `AccountSid`, Xero's `xero-tenant-id`) and the
 * server does not supply it, a sentence telling the model so, and where it comes from; else nothing.
 */
export function everyCallSentence(operations: readonly ToolDefinition[]): string {
  const counts = new Map<string, number>();
  for (const tool of operations) {
    const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : [];
    for (const name of new Set(required.filter((name): name is string => typeof name === "string")))
      counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  // A request body differs from call to call, whatever its name.
  counts.delete("body");
  const names = [...counts].filter(([, count]) => neededOnEveryCall(count, operations.length)).map(([name]) => `\`${name}\``);
  if (names.length === 0 || names.length > 3) return "";
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return ` Nearly every operation needs ${list}: the same value${names.length === 1 ? "" : "s"} for every call (an account or tenant the user works in), which the user gives or an earlier result names; ask the user when you have none.`;
}

/**
 * The three discovery tools, their schemas and annotations; `apiTitle` names the API in their descriptions, and the
 * search tool's names its `parts` (tags), so a model asks in the API's own words. When `run_code` takes the place of
 * `call_operation`, search and describe alone.
 */
export function discoveryToolDefinitions(
  apiTitle: string,
  operations: Iterable<ToolDefinition>,
  code: CodeBeside = "none",
  parts: readonly ApiPart[] = [],
): ServedTool[] {
  const api = apiTitle || "this API";
  const all = [...operations];
  const run =
    code === "instead"
      ? "call it from a program with run_code"
      : code === "beside"
        ? `run it with ${DISCOVERY_TOOLS.call}, or several from a program with run_code`
        : `run it with ${DISCOVERY_TOOLS.call}`;
  const tools: ServedTool[] = [
    {
      name: DISCOVERY_TOOLS.search,
      title: "Search operations",
      description:
        `Finds operations of ${api} by what they do${searchExamples(all, parts[0])}, best first. ` +
        (parts.length > 0 ? `${partsSentence(parts)} ` : "") +
        "Each result names the operation, what it does, its method, the arguments it needs and whether it changes data. " +
        `It matches words, not meaning: choose by the summaries, and when none fits ask for more (limit up to ${MAX_SEARCH_LIMIT})${parts.length > 0 ? " or within a part" : ""}. ` +
        `Read one with ${DISCOVERY_TOOLS.describe} and ${run}.` +
        everyCallSentence(all),
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", maxLength: 500, description: "What to do, in words; empty lists every operation." },
          tag: { type: "string", maxLength: 200, description: "Only operations with this tag (one of its parts)." },
          method: { type: "string", enum: [...METHODS], description: "Only operations with this HTTP method." },
          limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT, default: 10, description: "Results per page." },
          cursor: { type: "string", maxLength: 64, description: "The nextCursor of the previous page." },
        },
        required: ["query"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: {
          results: {
            type: "array",
            items: {
              type: "object",
              properties: {
                name: { type: "string" },
                operationId: { type: "string", description: "The document's operationId, where it differs from the name." },
                method: { type: "string" },
                path: { type: "string" },
                summary: { type: "string" },
                arguments: { type: "string", description: "The arguments, `name: type`, optional ones marked `?`." },
                readOnly: { type: "boolean" },
                destructive: { type: "boolean" },
                deprecated: { type: "boolean", description: "The document marks it deprecated: prefer a current one." },
                contradiction: {
                  type: "string",
                  description:
                    "Where the summary's verb contradicts the method (a DELETE summarised as an update): the method is what a call does.",
                },
              },
              required: ["name", "method", "path", "summary", "arguments", "readOnly", "destructive"],
            },
          },
          total: { type: "integer", description: "How many operations match." },
          note: { type: "string", description: "Why the results are what they are, when they are not matches of the query." },
          nextCursor: { type: "string" },
        },
        required: ["results", "total"],
      },
      annotations: { title: "Search operations", ...READ_ONLY },
    },
    describeToolDefinition(api, DISCOVERY_TOOLS.search),
    {
      name: DISCOVERY_TOOLS.call,
      title: "Call an operation",
      description:
        `Runs an operation of ${api} with arguments that match the inputSchema ${DISCOVERY_TOOLS.describe} shows, and ` +
        "returns its result. Some operations change or delete data: the description of each says so.",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", maxLength: 200, description: "The operation's name (or its operationId, or `METHOD /path`)." },
          arguments: { type: "object", description: "The operation's arguments.", default: {} },
        },
        required: ["name"],
        additionalProperties: false,
      },
      annotations: { title: "Call an operation", ...mostCautious(all) },
    },
  ];
  return code === "instead" ? tools.filter((tool) => tool.name !== DISCOVERY_TOOLS.call) : tools;
}
