import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../base/protocol-error.js";
import { didYouMean, excerpt } from "../base/suggest.js";
import { executeTool } from "../call/call-tool.js";
import type { CallerCredentials } from "../call/credentials.js";
import { DISCOVERY_TOOLS } from "../discovery/discovery-tools.js";
import { checkArgumentDepth } from "../protocol/argument-depth.js";
import { errorResult } from "../result/result.js";
import { describeOperation } from "./describe-operation.js";
import type { ToolRuntime } from "./tool-runtime-contract.js";

/**
 * Calls a listed tool by name: a discovery tool, or an operation's own tool (validated, executed, its result checked).
 * An unknown or unlisted name is a JSON-RPC "invalid params" error, as is a tool whose schemas do not compile.
 */
export async function callByName(
  runtime: ToolRuntime,
  name: string,
  args: Record<string, unknown>,
  caller: CallerCredentials,
): Promise<CallToolResult> {
  checkArgumentDepth(name, args);
  const { discovery } = runtime;
  const local = discovery?.call(runtime, name, args, caller);
  if (local) return local;
  if (discovery && !discovery.listsDirectly(name)) {
    const hint = runtime.tools.has(name) ? ` (call it with ${DISCOVERY_TOOLS.call})` : "";
    throw invalidParams(`Unknown tool: ${name}${hint}`);
  }
  if (name === DISCOVERY_TOOLS.describe && runtime.describesTools) return describeTool(runtime, args);
  const tool = runtime.tools.get(name);
  const validators = tool ? await runtime.validators.forTool(name) : undefined;
  if (!tool || !validators) throw invalidParams(`Unknown tool: ${name}`);
  return executeTool({ runtime, tool, validators, args, caller });
}

/** Tools mode's `describe_operation`: a tool's whole description and schemas, or one part of them. */
function describeTool(runtime: ToolRuntime, args: Record<string, unknown>): CallToolResult {
  const stray = Object.keys(args).find((key) => key !== "name" && key !== "at");
  if (stray !== undefined)
    return errorResult(`${DISCOVERY_TOOLS.describe}: unknown argument "${excerpt(stray, 40)}"; it takes name and at`);
  const tool = typeof args.name === "string" ? runtime.tools.get(args.name) : undefined;
  if (tool) return describeOperation(tool, args.at);
  const name = typeof args.name === "string" ? args.name : "";
  return errorResult(`${DISCOVERY_TOOLS.describe}: no tool is named "${excerpt(name, 80)}"${didYouMean(name, runtime.tools.keys())}`);
}
