import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../base/own-property.js";
import type { ToolDefinition } from "../base/tool.js";
import type { CallerCredentials } from "../call/credentials.js";
import { errorResult } from "../result/result.js";
import { describeErrors } from "../schema/validation.js";
import { MAX_ARGUMENT_DEPTH, nestsDeeperThan } from "./argument-depth.js";
import { executeTool } from "./call-tool.js";
import { DESCRIBE_OPERATION } from "./describe-operation.js";
import type { CallingClient, ToolRuntime } from "./tool-runtime-contract.js";

/**
 * Runs a registry operation for a tool that calls operations by name (`call_operation`, a `run_code` program): its
 * arguments validated against its input schema, then executed exactly as its own tool would be, with the caller's
 * credentials, and asked of the user first where it wants confirmation. `asking` names the calling tool in error
 * messages.
 */
export async function callOperation(
  runtime: ToolRuntime,
  tool: ToolDefinition,
  given: unknown,
  caller: CallerCredentials,
  asking: string,
  client: CallingClient = {},
): Promise<CallToolResult> {
  if (!isRecord(given)) return errorResult(`${asking}: arguments must be an object`);
  // A program's arguments did not pass the tools/call check: the same limit, before anything walks them.
  if (nestsDeeperThan(given, MAX_ARGUMENT_DEPTH))
    return errorResult(
      `${asking}: Invalid arguments for ${tool.name}: nested deeper than ${MAX_ARGUMENT_DEPTH} levels (this server's limit)`,
    );
  const validators = await runtime.validators.forTool(tool.name);
  if (!validators) return errorResult(`${asking}: ${tool.name} cannot be called`);
  if (!validators.input(given)) {
    const errors = validators.input.errors ?? [];
    const paths = [...new Set(errors.map((error) => error.schemaPath))].slice(0, 5).join(", ");
    return errorResult(
      `${asking}: Invalid arguments for ${tool.name}: ${describeErrors(errors, 5, tool.inputSchema)} (inputSchema ${paths}; ${DESCRIBE_OPERATION} shows it)`,
    );
  }
  return executeTool({ runtime, tool, validators, args: given, caller, client });
}
