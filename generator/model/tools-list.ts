import { type CodeSettings, type ToolDefinition, toolsListOf, toolsModeList } from "oapi-mcp-gen-runtime";
import { runCodeDefinition } from "oapi-mcp-gen-runtime/code";
import { type ApiPart, codeBeside, discoveryToolDefinitions } from "oapi-mcp-gen-runtime/discovery";
import { UserError } from "../base/errors.js";
import type { GeneratorConfig } from "../config/config.js";

/** The size of the `tools/list` answer the generated server will give. */
export interface ToolsListSize {
  bytes: number;
  /** Estimated as bytes / 4, the usual rule of thumb for JSON. */
  tokens: number;
}

/** Measures `tools/list` exactly as the runtime lists the tools (from the definitions that are written). */
export function toolsListSize(definitions: readonly ToolDefinition[], prefix: readonly unknown[] = []): ToolsListSize {
  const listed = toolsListOf(definitions);
  const bytes = Buffer.byteLength(JSON.stringify({ tools: [...prefix, ...listed] }));
  return { bytes, tokens: Math.ceil(bytes / 4) };
}

/** `tools/list` of a tools-mode server: every tool, `describe_operation` when a listing was cut (`describes`), and `run_code` with code mode. */
export function toolsModeListSize(
  definitions: readonly ToolDefinition[],
  apiTitle: string,
  code?: CodeSettings,
): ToolsListSize & { describes: boolean } {
  const { tools, describes } = toolsModeList(definitions, apiTitle);
  const served = code ? [runCodeDefinition(apiTitle, definitions, code)] : [];
  const bytes = Buffer.byteLength(JSON.stringify({ tools: [...tools, ...served] }));
  return { bytes, tokens: Math.ceil(bytes / 4), describes };
}

/** `tools/list` of a discovery server: the discovery tools, `run_code` with code mode, then the operations listed directly. */
export function discoveryListSize(
  apiTitle: string,
  definitions: readonly ToolDefinition[],
  alwaysList: readonly string[],
  code?: CodeSettings,
  parts: readonly ApiPart[] = [],
): ToolsListSize {
  const direct = new Set(alwaysList);
  const served = [
    ...discoveryToolDefinitions(apiTitle, definitions, codeBeside(code), parts),
    ...(code ? [runCodeDefinition(apiTitle, definitions, code)] : []),
  ];
  return toolsListSize(
    definitions.filter((definition) => direct.has(definition.name)),
    served,
  );
}

/** Above these a `tools/list` crowds a model's context: the default warning thresholds. */
export const DEFAULT_WARN_TOOLS = 100;
export const DEFAULT_WARN_TOKENS = 50_000;

/** Whether a list passes the config's budget, or the default thresholds when the config set none. */
export function overBudget(toolCount: number, measured: () => ToolsListSize, budget: GeneratorConfig["budget"]): boolean {
  const { maxBytes, maxTokens } = budget ?? {};
  // Measured only when the count alone does not decide (the list of a large API is costly to build).
  if (maxBytes === undefined && maxTokens === undefined) return toolCount > DEFAULT_WARN_TOOLS || measured().tokens > DEFAULT_WARN_TOKENS;
  const { bytes, tokens } = measured();
  return (maxBytes !== undefined && bytes > maxBytes) || (maxTokens !== undefined && tokens > maxTokens);
}

/** A warning when the list passes the default budget and the config set none of its own. */
export function budgetWarning(toolCount: number, size: ToolsListSize, budget: GeneratorConfig["budget"]): string[] {
  if (budget?.maxBytes !== undefined || budget?.maxTokens !== undefined) return [];
  if (!overBudget(toolCount, () => size, budget)) return [];
  return [
    `tools/list has ${toolCount} tools and about ${size.tokens} tokens (over ${DEFAULT_WARN_TOOLS} tools or ${DEFAULT_WARN_TOKENS} tokens, more than most clients and models use well); select fewer operations in the config (\`oapi-mcp-gen init\` lists them with their sizes), serve them through three search tools (\`mode: auto\`, the default, or \`discovery\`), or set budget.maxTokens to make this an error`,
  ];
}

/** Fails when the configured budget is exceeded, saying by how much and what helps. */
export function checkBudget(size: ToolsListSize, budget: GeneratorConfig["budget"]): void {
  const problems: string[] = [];
  if (budget?.maxBytes !== undefined && size.bytes > budget.maxBytes)
    problems.push(`${size.bytes} bytes, over the budget of ${budget.maxBytes}`);
  if (budget?.maxTokens !== undefined && size.tokens > budget.maxTokens)
    problems.push(`about ${size.tokens} tokens, over the budget of ${budget.maxTokens}`);
  if (problems.length > 0) {
    throw new UserError(`budget: tools/list is ${problems.join(" and ")}; select fewer operations or shorten descriptions with overrides`);
  }
}

/** A tool as `tools/list` names it, with its description. */
export interface ServedTool {
  name: string;
  description: string;
}

/** The tools the generated server lists, in its order: what an MCP Bundle's manifest names. */
export function servedTools(
  searches: boolean,
  definitions: readonly ToolDefinition[],
  apiTitle: string,
  alwaysList: readonly string[],
  code?: CodeSettings,
  parts: readonly ApiPart[] = [],
): ServedTool[] {
  const direct = new Set(alwaysList);
  const served: readonly { name: string; description?: string }[] = searches
    ? [
        ...discoveryToolDefinitions(apiTitle, definitions, codeBeside(code), parts),
        ...(code ? [runCodeDefinition(apiTitle, definitions, code)] : []),
        ...toolsListOf(definitions.filter((definition) => direct.has(definition.name))),
      ]
    : [...toolsModeList(definitions, apiTitle).tools, ...(code ? [runCodeDefinition(apiTitle, definitions, code)] : [])];
  return served.map((tool) => ({ name: tool.name, description: tool.description ?? "" }));
}
