import type { ToolDefinition } from "oapi-mcp-gen-runtime";

/** A tool as the registry holds it, from its method, path and title (also its description), and what else a test gives it. */
export function registryTool(
  name: string,
  method: string,
  path: string,
  title: string,
  more: Partial<ToolDefinition> = {},
): ToolDefinition {
  return {
    name,
    title,
    description: title,
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: method === "GET" },
    _meta: { method, path, operationId: name },
    ...more,
  } as unknown as ToolDefinition;
}
