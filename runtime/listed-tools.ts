import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { listedInputSchema } from "./listed-input.js";
import { shareOutputSchemas } from "./shared-listing.js";
import type { TolerantDefinitions } from "./tolerant-schema.js";
import type { JsonSchema, ToolDefinition } from "./tool.js";
import { listedOutputSchema } from "./validation.js";

/** One tool as `tools/list` shows it on its own (as `describe_operation` shows it): whole schemas, briefly said. */
export function listedForm(
  tool: ToolDefinition,
  shownOutput: (tool: ToolDefinition) => JsonSchema | undefined = listedOutputSchema,
): ListedTool {
  const { name, title, description, inputSchema, annotations, _meta } = tool;
  const outputSchema = shownOutput(tool);
  return {
    name,
    title,
    description,
    inputSchema: objectSchema(name, listedInputSchema(inputSchema)),
    ...(outputSchema ? { outputSchema: objectSchema(name, outputSchema) } : {}),
    annotations,
    _meta,
  };
}

/** The `tools/list` answer a server of these tools gives (its tolerant definitions made once for the whole list). */
export function toolsListOf(tools: readonly ToolDefinition[]): ListedTool[] {
  const definitions: TolerantDefinitions = new Map();
  return shareOutputSchemas(tools.map((tool) => listedForm(tool, (each) => listedOutputSchema(each, definitions))));
}

/** A tool schema as `tools/list` types it: MCP requires an object at the root. */
export function objectSchema(tool: string, schema: JsonSchema): ListedTool["inputSchema"] {
  const { type } = schema;
  if (type !== "object") throw new Error(`tool ${tool}: a schema's root must have type "object", not ${JSON.stringify(type)}`);
  return { ...schema, type };
}
