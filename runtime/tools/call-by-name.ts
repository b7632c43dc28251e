import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { invalidParams } from "../base/protocol-error.js";
import type { CallerCredentials } from "../call/credentials.js";
import { checkArgumentDepth } from "./argument-depth.js";
import { executeTool } from "./call-tool.js";
import { DESCRIBE_OPERATION, describeTool } from "./describe-operation.js";
import type { CallingClient, ToolRuntime } from "./tool-runtime-contract.js";

/**
 * Calls a listed tool by name: a discovery tool, or an operation's own tool (validated, executed, its result checked).
 * An unknown or unlisted name is a JSON-RPC "invalid params" error, as is a tool whose schemas do not compile.
 */
export async function callByName(
  runtime: ToolRuntime,
  name: string,
  args: Record<string, unknown>,
  caller: CallerCredentials,
  client: CallingClient = {},
): Promise<CallToolResult> {
  checkArgumentDepth(name, args);
  const served = runtime.code?.call(runtime, name, args, caller, client) ?? runtime.discovery?.call(runtime, name, args, caller, client);
  if (served) return served;
  if (name === DESCRIBE_OPERATION && runtime.describesTools) return describeTool(runtime.tools, args, runtime.code !== undefined);
  const tool = runtime.tools.get(name);
  const validators = tool ? await runtime.validators.forTool(name) : undefined;
  if (!tool || !validators) throw invalidParams(`Unknown tool: ${name}`);
  return executeTool({ runtime, tool, validators, args, caller, client });
}
