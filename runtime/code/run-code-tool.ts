import { isRecord } from "../base/own-property.js";
import type { ToolDefinition } from "../base/tool.js";
import type { ServedTool } from "../tools/tool-runtime-contract.js";
import { budgetsOf, type CodeSettings, readsOnly } from "./code-settings.js";

/** The name of the tool that runs programs. */
export const RUN_CODE = "run_code";

/** The longest program `run_code` takes, in characters. */
export const MAX_CODE_LENGTH = 50_000;

/** Whether a program may call this operation under the settings. */
export function mayCall(tool: ToolDefinition, settings: CodeSettings): boolean {
  const writes = settings.allowWrites ?? false;
  if (readsOnly(tool._meta.method) || writes === true) return true;
  return (
    Array.isArray(writes) &&
    (writes.includes(tool.name) || (tool._meta.operationId !== undefined && writes.includes(tool._meta.operationId)))
  );
}

/** Path words of probes and server plumbing: a program's example lists the API's own things, not its health. */
const PROBES = /(?:^|[/._-])(?:health|healthz|ready|readyz|readiness|live|livez|liveness|ping|metrics|version|status)(?:$|[/._-])/i;

/** How well an operation suits the example: a list of the API's own things first (no probe), then any read. */
function exampleRank(tool: ToolDefinition): number {
  if (PROBES.test(tool._meta.path)) return 3;
  const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required.length : 0;
  const lists = !/\}\/?$/.test(tool._meta.path);
  return lists && required === 0 ? 0 : lists ? 1 : 2;
}

/**
 * A short program for this API: an operation that only reads (a list of the API's own things where there is one,
 * never a health probe where there is another), called with sample values for what it requires.
 */
export function codeExample(tools: readonly ToolDefinition[]): string {
  // The first read of the best rank, each ranked once.
  const reads = tools.filter((tool) => readsOnly(tool._meta.method));
  const ranks = reads.map(exampleRank);
  const read = reads[ranks.indexOf(Math.min(...ranks))] ?? tools[0];
  if (!read) return "return 1 + 1;";
  const properties = isRecord(read.inputSchema.properties) ? read.inputSchema.properties : {};
  const required = Array.isArray(read.inputSchema.required) ? read.inputSchema.required.filter((name) => typeof name === "string") : [];
  const args = required.map((name) => `${JSON.stringify(name)}: ${JSON.stringify(sampleOf(properties[name]))}`).join(", ");
  const call = /^[A-Za-z_$][\w$]*$/.test(read.name) ? `api.${read.name}` : `api[${JSON.stringify(read.name)}]`;
  return `const found = await ${call}({${args ? ` ${args} ` : ""}});\nconsole.log(Object.keys(found));\nreturn found;`;
}

function sampleOf(schema: unknown): unknown {
  if (!isRecord(schema)) return "example";
  const first: unknown = Array.isArray(schema.enum) ? schema.enum[0] : undefined;
  // A document's enum value is shown only when it is plain: an example is read by models and printed in READMEs.
  if (typeof first === "number" || typeof first === "boolean" || (typeof first === "string" && /^[\w.-]{1,40}$/.test(first))) return first;
  if (schema.type === "integer" || schema.type === "number") return 1;
  if (schema.type === "boolean") return true;
  if (schema.type === "array") return [];
  if (schema.type === "object") return {};
  return "example";
}

/** `run_code`'s listing: what a program can do, its budgets, and an example over this API's own operations. */
export function runCodeDefinition(apiTitle: string, tools: readonly ToolDefinition[], settings: CodeSettings): ServedTool {
  const api = apiTitle || "this API";
  const budgets = budgetsOf(settings);
  const writable = tools.filter((tool) => !readsOnly(tool._meta.method) && mayCall(tool, settings));
  const writes =
    writable.length === 0
      ? "Programs only read: an operation that changes data throws."
      : settings.allowWrites === true
        ? "Programs may change data: each operation's description says what it does."
        : `Programs may change data only through ${writable.map((tool) => tool.name).join(", ")}; other operations that change data throw.`;
  return {
    name: RUN_CODE,
    title: "Run a program",
    description:
      `Runs a short JavaScript program (ES2023; TypeScript annotations are stripped) against ${api}, for a task of several ` +
      "steps in one call. Each operation is an async function `api.<name>(args)` taking the arguments describe_operation " +
      "shows and resolving to its result; a failed call throws. `return` a value and `console.log` as you go: both come " +
      `back, with the calls made. A run has ${budgets.timeoutMs / 1000} s, ${budgets.memoryMb} MB and ${budgets.maxCalls} ` +
      `calls; there is no network, file system, module or timer besides \`api\`. ${writes}` +
      (settings.typeCheck
        ? " Each program is type-checked against the operations' arguments first: an error comes back with its line, and nothing runs."
        : "") +
      `\nExample:\n${codeExample(tools)}`,
    inputSchema: {
      type: "object",
      properties: {
        code: { type: "string", maxLength: MAX_CODE_LENGTH, description: "The program: the body of an async function." },
      },
      required: ["code"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: {
        result: { description: "What the program returned (null for nothing)." },
        logs: { type: "array", items: { type: "string" }, description: "What it logged, a line per call of console.log." },
        logsCut: { type: "boolean", description: "True when the logs passed their limit and the rest was left out." },
        calls: {
          type: "array",
          items: {
            type: "object",
            properties: {
              name: { type: "string" },
              ok: { type: "boolean" },
              unfinished: { type: "boolean", description: "Still running when the program ended (it may have changed data)." },
            },
            required: ["name", "ok"],
          },
          description: "The operations it called, in order.",
        },
      },
      required: ["result", "logs", "calls"],
    },
    annotations: {
      title: "Run a program",
      readOnlyHint: writable.length === 0,
      destructiveHint: writable.length > 0,
      idempotentHint: writable.length === 0,
      openWorldHint: true,
    },
  };
}
