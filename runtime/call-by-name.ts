import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { checkArgumentDepth } from "./argument-depth.js";
import { executeTool } from "./call-tool.js";
import type { CallerCredentials } from "./credentials.js";
import { DISCOVERY_TOOLS } from "./discovery-tools.js";
import { invalidParams } from "./protocol-error.js";
import type { ToolRuntime } from "./tool-runtime.js";

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
  const tool = runtime.tools.get(name);
  const validators = tool ? await runtime.validators.forTool(name) : undefined;
  if (!tool || !validators) throw invalidParams(`Unknown tool: ${name}`);
  return executeTool({ runtime, tool, validators, args, caller });
}
