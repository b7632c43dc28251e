import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { jsonLongerThan, jsonText } from "../base/json-text.js";
import type { JsonSchema, ToolDefinition } from "../base/tool.js";
import { listedInputSchema } from "../schema/listed-input.js";
import { listedOutputSchema } from "../schema/listed-output.js";
import { portableSchema } from "../schema/portable-schema.js";
import { type Fitted, firstSentence, fitSchema } from "../schema/schema-fit.js";
import { DESCRIBE_OPERATION, describeToolDefinition } from "./describe-operation.js";

/**
 * What one tool's listing may take. A tool listed in at most `tool` bytes is listed whole (but for an output schema
 * past `wholeOutput`); a larger one has its description, input and output schema each cut to fit its own limit
 * (`describe_operation` shows the rest).
 */
export const LISTING_LIMITS = {
  /** Bytes of JSON of a tool listed whole. */
  tool: 14_000,
  /** Characters of the tool's description. */
  description: 800,
  /** Bytes of JSON of the input schema. */
  input: 6_000,
  /** Bytes of JSON of the output schema, when cut. */
  output: 4_000,
  /** Bytes of JSON of an output schema listed whole in a tool that is: a larger one is cut. */
  wholeOutput: 8_000,
};

/** A tool as `tools/list` shows it, and whether anything was cut to fit `LISTING_LIMITS`. */
export interface Listing {
  tool: ListedTool;
  cut: boolean;
}

/**
 * One tool as `tools/list` shows it: its schemas said briefly and portably, the whole of it within about 14 KB
 * (`LISTING_LIMITS`); what does not fit is cut down to notes that name the `describe_operation` call showing it.
 */
export function listing(tool: ToolDefinition): Listing {
  const fitOutput = (schema: JsonSchema) => fitSchema(schema, { maxBytes: LISTING_LIMITS.output, at: "result", keepRequired: false });
  // An output schema past `wholeOutput` is cut whatever the rest: each tool spells out its own result shapes.
  const whole = listedWith(
    tool,
    (schema) => ({ schema, cut: false }),
    (schema) => (jsonLongerThan(schema, LISTING_LIMITS.wholeOutput) ? fitOutput(schema) : { schema, cut: false }),
    false,
  );
  if (jsonText(whole.tool).length <= LISTING_LIMITS.tool) return whole;
  return listedWith(
    tool,
    (schema) => fitSchema(schema, { maxBytes: LISTING_LIMITS.input, at: "arguments", keepRequired: true }),
    fitOutput,
    true,
  );
}

/** A tool's listing with its input and output schemas fitted as given, its description cut when `brief`. */
function listedWith(
  tool: ToolDefinition,
  fitInput: (schema: JsonSchema) => Fitted,
  fitOutput: (schema: JsonSchema) => Fitted,
  brief: boolean,
): Listing {
  const { name, title, annotations, _meta } = tool;
  const description = brief ? briefDescription(tool.description, name) : { text: tool.description, cut: false };
  const input = fitInput(listedInputSchema(tool.inputSchema));
  const output = listedOutputSchema(tool, fitOutput);
  return {
    tool: {
      name,
      title,
      description: description.text,
      inputSchema: objectSchema(name, portableSchema(input.schema)),
      ...(output ? { outputSchema: objectSchema(name, output.schema) } : {}),
      annotations,
      _meta,
    },
    cut: description.cut || input.cut || (output?.cut ?? false),
  };
}

/** One tool as `tools/list` shows it. */
export function listedForm(tool: ToolDefinition): ListedTool {
  return listing(tool).tool;
}

/** The tools' listings, one each (what `tools/list` shows of them, without `describe_operation`). */
export function toolsListOf(tools: readonly ToolDefinition[]): ListedTool[] {
  return tools.map((tool) => listedForm(tool));
}

/**
 * The `tools/list` answer of a tools-mode server: each tool's listing, then `describe_operation` when some listing
 * was cut to fit (its notes point there) and no tool already has that name.
 */
export function toolsModeList(tools: readonly ToolDefinition[], apiTitle: string): { tools: ListedTool[]; describes: boolean } {
  const listings = tools.map(listing);
  const own = listings.map((each) => each.tool);
  const describes = listings.some((each) => each.cut) && !tools.some((tool) => tool.name === DESCRIBE_OPERATION);
  return { tools: describes ? [...own, describeToolDefinition(apiTitle)] : own, describes };
}

/** A description within `LISTING_LIMITS.description`: its first paragraphs that fit, else its first sentence. */
function briefDescription(text: string, tool: string): { text: string; cut: boolean } {
  if (text.length <= LISTING_LIMITS.description) return { text, cut: false };
  const paragraphs = text.split(/\n\s*\n/);
  let kept = "";
  for (const paragraph of paragraphs) {
    const next = kept === "" ? paragraph : `${kept}\n\n${paragraph}`;
    if (next.length > LISTING_LIMITS.description) break;
    kept = next;
  }
  const brief = kept === "" ? firstSentence(text) : kept;
  return { text: `${brief}\n\n(More: describe_operation {"name": "${tool}"}.)`, cut: true };
}

/** A tool schema as `tools/list` types it: MCP requires an object at the root. */
export function objectSchema(tool: string, schema: JsonSchema): ListedTool["inputSchema"] {
  const { type } = schema;
  if (type !== "object") throw new Error(`tool ${tool}: a schema's root must have type "object", not ${JSON.stringify(type)}`);
  return { ...schema, type };
}
