import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "../base/tool.js";
import type { CallerCredentials } from "../call/credentials.js";
import { decodeJson, errorResult, successResult } from "../result/result.js";
import { callOperation } from "../tools/call-operation.js";
import type { ServedTool, ServedTools, ToolRuntime } from "../tools/tool-runtime-contract.js";
import { budgetsOf, type CodeSettings } from "./code-settings.js";
import { MAX_CODE_LENGTH, mayCall, RUN_CODE, runCodeDefinition } from "./run-code-tool.js";
import { type CallHandler, SandboxPool } from "./sandbox-pool.js";

/** The most bytes of JSON one `api` call may pass. */
const MAX_ARGUMENT_BYTES = 1_048_576;

/** The engine's workers, shared by every code-mode runtime of the process. */
const pool = new SandboxPool({ maxRuns: 4, maxQueued: 16, keepWarm: 2 });

/** Starts a sandbox worker ahead of the first run. */
export function warmSandbox(): Promise<void> {
  return pool.warm();
}

/** Stops the idle sandbox workers. */
export function closeSandbox(): Promise<void> {
  return pool.close();
}

/**
 * Code mode's `run_code`: a program runs in a WebAssembly JavaScript engine on a worker thread, and each `api.<name>()`
 * it calls runs the operation here, exactly as `call_operation` would (validation, the caller's credentials, the
 * upstream rules), within the run's budgets and the server's write policy.
 */
export class CodeService implements ServedTools {
  readonly listed: readonly ServedTool[];
  private readonly byName: ReadonlyMap<string, ToolDefinition>;

  constructor(
    tools: readonly ToolDefinition[],
    private readonly settings: CodeSettings,
    apiTitle: string,
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.listed = [runCodeDefinition(apiTitle, tools, settings)];
  }

  /** Runs `run_code`; undefined for any other name. */
  call(runtime: ToolRuntime, name: string, args: Record<string, unknown>, caller: CallerCredentials): Promise<CallToolResult> | undefined {
    return name === RUN_CODE ? this.run(runtime, args, caller) : undefined;
  }

  private async run(runtime: ToolRuntime, args: Record<string, unknown>, caller: CallerCredentials): Promise<CallToolResult> {
    const stray = Object.keys(args).find((key) => key !== "code");
    if (stray !== undefined) return errorResult(`${RUN_CODE}: unknown argument "${stray.slice(0, 40)}"; it takes code`);
    if (typeof args.code !== "string" || args.code.length > MAX_CODE_LENGTH)
      return errorResult(`${RUN_CODE}: code must be a program of at most ${MAX_CODE_LENGTH} characters`);
    const budgets = budgetsOf(this.settings);
    const calls: { name: string; ok: boolean }[] = [];
    const onCall: CallHandler = async (name, json) => {
      const tool = this.byName.get(name);
      if (!tool) return { ok: false, message: `api.${name} is no operation of this server` };
      if (calls.length >= budgets.maxCalls) return { ok: false, message: `api.${name}: the run's ${budgets.maxCalls} calls are used up` };
      if (!mayCall(tool, this.settings)) {
        calls.push({ name, ok: false });
        return {
          ok: false,
          message: `api.${name} changes data (${tool._meta.method}); this server runs programs that only read (code.allowWrites)`,
        };
      }
      const args = decodeJson(json);
      if (!args.ok) return { ok: false, message: `api.${name}: its arguments must be JSON` };
      const result = await callOperation(runtime, tool, args.value, caller, `api.${name}`);
      calls.push({ name, ok: result.isError !== true });
      if (result.isError) return { ok: false, message: textOf(result) };
      return { ok: true, json: JSON.stringify(result.structuredContent ?? textOf(result)) };
    };
    const outcome = await pool.run(
      {
        code: args.code,
        names: [...this.byName.keys()],
        limits: {
          timeoutMs: budgets.timeoutMs,
          memoryBytes: budgets.memoryMb * 1_048_576,
          maxOutputBytes: budgets.maxOutputBytes,
          maxArgumentBytes: MAX_ARGUMENT_BYTES,
          maxCalls: budgets.maxCalls,
        },
      },
      onCall,
    );
    const logs = { logs: outcome.logs, ...(outcome.logsCut ? { logsCut: true } : {}), calls };
    if (!outcome.ok) {
      const where = outcome.line !== undefined ? ` at line ${outcome.line}` : "";
      return errorResult(`${RUN_CODE}: ${outcome.message}${where}`, JSON.stringify(logs));
    }
    const value = decodeJson(outcome.json);
    return successResult({ result: value.ok ? value.value : null, ...logs });
  }
}

/** The text of a tool result (its first text part). */
function textOf(result: CallToolResult): string {
  const first = result.content.find((part) => part.type === "text");
  return first?.type === "text" ? first.text : "";
}
