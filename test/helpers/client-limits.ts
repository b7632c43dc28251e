import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { dialectProblems } from "./schema-dialects.js";

/**
 * What strict MCP clients reject: top-level combinators in an input schema, names over 64 characters or outside
 * `^[A-Za-z0-9_.-]+$`, a missing description, non-boolean annotations, schemas either JSON Schema dialect refuses.
 */
export function clientLimitProblems(tools: readonly Tool[]): string[] {
  const problems: string[] = [];
  for (const tool of tools) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(tool.name)) problems.push(`${tool.name}: name`);
    if (!tool.description?.trim()) problems.push(`${tool.name}: no description`);
    if (tool.inputSchema.type !== "object") problems.push(`${tool.name}: input schema not an object`);
    for (const keyword of ["oneOf", "anyOf", "allOf", "not"])
      if (keyword in tool.inputSchema) problems.push(`${tool.name}: top-level ${keyword}`);
    for (const [hint, value] of Object.entries(tool.annotations ?? {}))
      if (hint !== "title" && typeof value !== "boolean") problems.push(`${tool.name}: ${hint} is not boolean`);
    problems.push(...dialectProblems(`${tool.name} input`, tool.inputSchema));
    if (tool.outputSchema) problems.push(...dialectProblems(`${tool.name} output`, tool.outputSchema));
  }
  return problems;
}
