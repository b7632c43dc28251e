/**
 * Code mode (`run_code`): a model's program runs in a WebAssembly JavaScript engine on a worker thread, calling the
 * registry's operations through `api`. A server without code mode never loads it; `serve` imports it when configured.
 */

import type { ToolDefinition } from "../base/tool.js";
import type { ServedToolsFactory } from "../tools/tool-runtime-contract.js";
import { CodeService } from "./code-service.js";
import type { CodeSettings } from "./code-settings.js";

export { CodeService, closeSandbox, warmSandbox } from "./code-service.js";
export { budgetsOf, type CodeSettings } from "./code-settings.js";
export { checkerFor, type ProgramChecker } from "./program-check.js";
export { codeExample, RUN_CODE, runCodeDefinition } from "./run-code-tool.js";
export { type PoolLimits, SandboxPool } from "./sandbox-pool.js";

/** `run_code` over the registry's operations, for `createToolRuntime({ code })`. */
export function codeOf(settings: CodeSettings): ServedToolsFactory {
  return (tools: readonly ToolDefinition[], apiTitle: string) => new CodeService(tools, settings, apiTitle);
}
