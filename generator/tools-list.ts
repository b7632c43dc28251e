import { toolDefinition } from "../templates/tool-module.js";
import type { GeneratorConfig } from "./config.js";
import { UserError } from "./errors.js";
import type { ToolModel } from "./tool-model.js";

/** The size of the `tools/list` answer the generated server will give. */
export interface ToolsListSize {
  bytes: number;
  /** Estimated as bytes / 4, the usual rule of thumb for JSON. */
  tokens: number;
}

/** Measures `tools/list` exactly as the runtime lists the tools. */
export function toolsListSize(tools: readonly ToolModel[]): ToolsListSize {
  const listed = tools.map((tool) => {
    const { name, title, description, inputSchema, outputSchema, annotations, _meta } = toolDefinition(tool);
    return { name, title, description, inputSchema, outputSchema, annotations, _meta };
  });
  const bytes = Buffer.byteLength(JSON.stringify({ tools: listed }));
  return { bytes, tokens: Math.ceil(bytes / 4) };
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
