import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { inRequestScope, openRequestScope, requestScope } from "../base/request-scope.js";
import { didYouMean } from "../base/suggest.js";
import type { ToolDefinition } from "../base/tool.js";
import type { CallerCredentials } from "../call/credentials.js";
import { decodeJson, errorResult, successResult } from "../result/result.js";
import { callOperation } from "../tools/call-operation.js";
import type { CallingClient, ServedTool, ServedTools, ToolRuntime } from "../tools/tool-runtime-contract.js";
import { budgetsOf, type CodeBudgets, type CodeSettings } from "./code-settings.js";
import { checkerFor } from "./program-check.js";
import { MAX_CODE_LENGTH, mayCall, RUN_CODE, runCodeDefinition } from "./run-code-tool.js";
import { type CallHandler, type RunRequest, SandboxPool } from "./sandbox-pool.js";

/** Programs one caller may have running at once (as many again wait their turn): others keep their share of the pool. */
const RUNS_PER_CALLER = 2;

/** The most bytes of JSON one `api` call may pass. */
const MAX_ARGUMENT_BYTES = 1_048_576;

/** The engine's workers, shared by the code-mode runtimes of the process that give runs the same memory. */
const pools = new Map<number, SandboxPool>();

function poolFor(memoryMb: number): SandboxPool {
  let pool = pools.get(memoryMb);
  if (!pool) {
    pool = new SandboxPool({ maxRuns: 4, maxQueued: 16, perCaller: RUNS_PER_CALLER, keepWarm: 2, memoryMb });
    pools.set(memoryMb, pool);
  }
  return pool;
}

/** Starts a sandbox worker ahead of the first run (for runs of this memory budget). */
export function warmSandbox(settings: CodeSettings = {}): Promise<void> {
  return poolFor(budgetsOf(settings).memoryMb).warm();
}

/** Stops the idle sandbox workers. */
export async function closeSandbox(): Promise<void> {
  await Promise.all([...pools.values()].map((pool) => pool.close()));
}

/**
 * Code mode's `run_code`: a program runs in a WebAssembly JavaScript engine on a worker thread, and each `api.<name>()`
 * it calls runs the operation here, exactly as `call_operation` would (validation, the caller's credentials, the
 * upstream rules), within the run's budgets and the server's write policy.
 */
export class CodeService implements ServedTools {
  readonly listed: readonly ServedTool[];
  private readonly byName: ReadonlyMap<string, ToolDefinition>;
  private readonly budgets: CodeBudgets;
  /** What every run of this server is sent: the operations on `api`, and the budgets as the worker applies them. */
  private readonly request: Omit<RunRequest, "code">;

  constructor(
    private readonly tools: readonly ToolDefinition[],
    private readonly settings: CodeSettings,
    apiTitle: string,
  ) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.listed = [runCodeDefinition(apiTitle, tools, settings)];
    this.budgets = budgetsOf(settings);
    this.request = {
      names: [...this.byName.keys()],
      limits: {
        timeoutMs: this.budgets.timeoutMs,
        memoryBytes: this.budgets.memoryMb * 1_048_576,
        maxOutputBytes: this.budgets.maxOutputBytes,
        maxArgumentBytes: MAX_ARGUMENT_BYTES,
        maxCalls: this.budgets.maxCalls,
      },
    };
  }

  /** Runs `run_code`; undefined for any other name. */
  call(
    runtime: ToolRuntime,
    name: string,
    args: Record<string, unknown>,
    caller: CallerCredentials,
    client: CallingClient = {},
  ): Promise<CallToolResult> | undefined {
    return name === RUN_CODE ? this.run(runtime, args, caller, client) : undefined;
  }

  private async run(
    runtime: ToolRuntime,
    args: Record<string, unknown>,
    caller: CallerCredentials,
    client: CallingClient,
  ): Promise<CallToolResult> {
    const stray = Object.keys(args).find((key) => key !== "code");
    if (stray !== undefined) return errorResult(`${RUN_CODE}: unknown argument "${stray.slice(0, 40)}"; it takes code`);
    if (typeof args.code !== "string" || args.code.length > MAX_CODE_LENGTH)
      return errorResult(`${RUN_CODE}: code must be a program of at most ${MAX_CODE_LENGTH} characters`);
    const module = /^[ \t]*(import|export)\b(?!\s*\()/m.exec(args.code);
    if (module) {
      const line = args.code.slice(0, module.index).split("\n").length;
      return errorResult(`${RUN_CODE}: a program has no modules (${module[1]} at line ${line}): only api and console exist`);
    }
    if (this.settings.typeCheck) {
      const errors = (await checkerFor(this.tools)).check(args.code);
      if (errors.length > 0) {
        runtime.log.warn("run_code refused", { reason: "the program does not type-check", errors: errors.length, first: errors[0] });
        return errorResult(
          `${RUN_CODE}: the program was checked against api before it ran, and nothing ran:\n${errors.join("\n")}\n(an operation's arguments are its input schema, as tools/list or describe_operation shows it)`,
        );
      }
    }
    // A program's calls ask the user while it waits (elicitation), never by ending the run for a retry (2026-07-28's
    // input_required): a call that wants confirmation where the client can only be asked that way is refused.
    return await this.runProgram(runtime, args.code, caller, { inProgram: true, ...(client.askUser ? { askUser: client.askUser } : {}) });
  }

  private async runProgram(runtime: ToolRuntime, code: string, caller: CallerCredentials, client: CallingClient): Promise<CallToolResult> {
    const { budgets } = this;
    const started = performance.now();
    // Every call is listed from when it starts: one the program did not wait for still reached the upstream.
    const calls: { name: string; ok: boolean; unfinished?: boolean }[] = [];
    let ended = false;
    // A program's calls arrive from its worker thread, outside the request's context: each runs in the run's scope, so
    // it is the run's caller (its sign-in and scopes, never its MCP token upstream) that makes it.
    const scope = openRequestScope();
    const callFromProgram = async (name: string, json: string): ReturnType<CallHandler> => {
      const tool = this.byName.get(name);
      if (!tool) return { ok: false, message: `api.${name} is no operation of this server` };
      if (ended) return { ok: false, message: `api.${name}: the run has ended` };
      if (calls.length >= budgets.maxCalls) return { ok: false, message: `api.${name}: the run's ${budgets.maxCalls} calls are used up` };
      const call = { name, ok: false, unfinished: true };
      calls.push(call);
      if (!mayCall(tool, this.settings)) {
        call.unfinished = false;
        return {
          ok: false,
          message: `api.${name} changes data (${tool._meta.method}); this server's programs may not call it (code.allowWrites)`,
        };
      }
      const args = decodeJson(json);
      const result = args.ok
        ? await callOperation(runtime, tool, args.value, caller, `api.${name}`, client)
        : errorResult(`api.${name}: its arguments must be JSON`);
      call.ok = result.isError !== true;
      call.unfinished = false;
      if (result.isError) return { ok: false, message: textOf(result) };
      return { ok: true, json: JSON.stringify(result.structuredContent ?? textOf(result)) };
    };
    const onCall: CallHandler = (name, json) =>
      scope ? inRequestScope(scope, () => callFromProgram(name, json)) : callFromProgram(name, json);
    // The share is the caller's as the transport knows it (never a credential the caller could make up), and the run
    // stops when the caller goes away.
    const outcome = await poolFor(budgets.memoryMb).run({ ...this.request, code }, onCall, requestScope());
    ended = true;
    const made = calls.map(({ name, ok, unfinished }) => (unfinished ? { name, ok, unfinished } : { name, ok }));
    const logs = { logs: outcome.logs, ...(outcome.logsCut ? { logsCut: true } : {}), calls: made };
    const fields = {
      ms: Math.round(performance.now() - started),
      calls: calls.length,
      unfinished: calls.filter((call) => call.unfinished).length,
    };
    if (!outcome.ok) {
      const where = outcome.line !== undefined ? ` at line ${outcome.line}` : "";
      const message = `${outcome.message}${where}${this.unknownOperations(code, outcome)}`;
      runtime.log.warn("run_code failed", { ...fields, error: message });
      return errorResult(`${RUN_CODE}: ${message}`, JSON.stringify(logs));
    }
    runtime.log.info("run_code", fields);
    const value = decodeJson(outcome.json);
    return successResult({ result: value.ok ? value.value : null, ...logs });
  }

  /** For "not a function" on a line that names an operation this server does not have: which, and the nearest. */
  private unknownOperations(code: string, outcome: { message: string; line?: number }): string {
    if (!/not a function/.test(outcome.message) || outcome.line === undefined) return "";
    const line = code.split("\n")[outcome.line - 1] ?? "";
    const named = [...line.matchAll(/\bapi(?:\.([A-Za-z_$][\w$]*)|\[\s*["']([^"']{1,200})["']\s*\])/g)].map(
      (match) => match[1] ?? match[2] ?? "",
    );
    const unknown = named.find((name) => name !== "" && !this.byName.has(name));
    return unknown === undefined ? "" : `; api.${unknown} is no operation of this server${didYouMean(unknown, this.byName.keys())}`;
  }
}

/** The text of a tool result (its first text part). */
function textOf(result: CallToolResult): string {
  const first = result.content.find((part) => part.type === "text");
  return first?.type === "text" ? first.text : "";
}
