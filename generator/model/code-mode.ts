import { type CodeSettings, didYouMean, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { budgetsOf, codeExample } from "oapi-mcp-gen-runtime/code";
import { UserError } from "../base/errors.js";
import type { ResolvedConfig } from "../config/config.js";
import type { ToolModel } from "./tool-model.js";

/**
 * What the generated server's code mode runs with: nothing without it; else the config's budgets, the operations
 * programs may change data through (operationIds or tool names, written as tool names; an unknown one is an error),
 * and, in `mode: code`, `run_code` in place of `call_operation`.
 */
export function codeSettings(config: ResolvedConfig, tools: readonly ToolModel[]): CodeSettings | undefined {
  const given = config.code;
  if (given === false && config.mode !== "code") return undefined;
  const { allowWrites = false, ...budgets } = typeof given === "object" ? given : {};
  return {
    allowWrites: Array.isArray(allowWrites) ? writableTools(allowWrites, tools) : allowWrites,
    ...budgets,
    ...(config.mode === "code" ? { replacesCall: true } : {}),
  };
}

/** What the generated README says of code mode: where `run_code` stands, what it may change, and a program for this API. */
export function codeFacts(code: CodeSettings, definitions: readonly ToolDefinition[]) {
  const { timeoutMs, memoryMb, maxCalls } = budgetsOf(code);
  return {
    instead: code.replacesCall === true,
    example: codeExample(definitions),
    writes: code.allowWrites ?? false,
    timeoutMs,
    memoryMb,
    maxCalls,
    typeCheck: code.typeCheck === true,
  };
}

function writableTools(names: readonly string[], tools: readonly ToolModel[]): string[] {
  const byName = new Map(
    tools.flatMap((tool) => [[tool.name, tool.name] as const, ...(tool.operationId ? [[tool.operationId, tool.name] as const] : [])]),
  );
  const problems: string[] = [];
  const resolved = names.flatMap((name) => {
    const tool = byName.get(name);
    if (tool === undefined) problems.push(`code.allowWrites: "${name}" is not a selected operation${didYouMean(name, byName.keys())}`);
    return tool === undefined ? [] : [tool];
  });
  if (problems.length > 0) throw new UserError(problems);
  return [...new Set(resolved)];
}
