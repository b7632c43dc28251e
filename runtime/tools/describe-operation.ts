import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isRecord, setOwn } from "../base/own-property.js";
import { didYouMean, excerpt } from "../base/suggest.js";
import type { JsonSchema, ToolAnnotations, ToolDefinition } from "../base/tool.js";
import { errorResult } from "../result/result.js";
import { listedInputSchema } from "../schema/listed-input.js";
import { briefly } from "../schema/listed-output.js";
import { fitSchema } from "../schema/schema-fit.js";
import { referencedKeys, refKey } from "../schema/schema-walk.js";
import { apiSignature } from "./api-signature.js";
import type { ServedTool } from "./tool-runtime-contract.js";

/** The name of the tool that describes an operation, in tools mode and in discovery mode. */
export const DESCRIBE_OPERATION = "describe_operation";

/** The annotations of a tool that only reads the server's own registry. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** How describe_operation shows an empty security requirement: the operation can be called without a credential. */
export const NO_CREDENTIAL = "no credential";

/** Bytes of JSON each part of a description may take: an answer stays about 16 KB whatever the operation. */
export const DESCRIBE_LIMITS = { arguments: 4_000, result: 5_000, part: 12_000 };

/**
 * `describe_operation`'s answer: the JSON Schema of the operation's arguments first, then its whole description,
 * method, path, annotations and credentials; the result's schema with `at: "result"`. Each schema is fitted to its size
 * (deeper parts become notes naming their `at`). With `at` (`arguments.body.shipping`, `result.data`), the schema of
 * that part alone. One JSON text: said once. With code mode, also the operation as a program calls it
 * (`api.name(args): Promise<result>`).
 */
export function describeOperation(tool: ToolDefinition, at: unknown, withSignature = false): CallToolResult {
  if (at !== undefined && (typeof at !== "string" || at.length > 500))
    return errorResult("describe_operation: at must be a path such as arguments.body");
  if (typeof at === "string" && at !== "" && at !== "arguments" && at !== "result") return describePart(tool, at);
  const warning = tool.annotations.destructiveHint !== false && tool.annotations.readOnlyHint !== true;
  const fitted = (schema: JsonSchema, where: "arguments" | "result", maxBytes: number) =>
    fitSchema(schema, { maxBytes, at: where, keepRequired: where === "arguments" }).schema;
  const result = at === "result";
  // Arguments first, what it does next; the result's schema only when asked for (most calls need only the arguments).
  const answer = {
    name: tool.name,
    title: tool.title,
    method: tool._meta.method,
    path: tool._meta.path,
    ...(withSignature ? { signature: apiSignature(tool) } : {}),
    ...(!result ? { arguments: fitted(listedInputSchema(tool.inputSchema), "arguments", DESCRIBE_LIMITS.arguments) } : {}),
    description: warning ? `${tool.description}\n\nThis operation changes or deletes data: call it only when asked to.` : tool.description,
    annotations: tool.annotations,
    ...(tool._meta.deprecated ? { deprecated: true } : {}),
    // An empty requirement is the document's way to say none is needed (`[{}]`: public, `[{ key: [] }, {}]`: optional).
    ...(tool.security
      ? { security: tool.security.map((requirement) => (Object.keys(requirement).length === 0 ? NO_CREDENTIAL : requirement)) }
      : {}),
    ...(tool.outputSchema && result ? { result: fitted(briefly(tool.outputSchema), "result", DESCRIBE_LIMITS.result) } : {}),
    ...(tool.outputSchema && at === undefined ? { resultSchema: 'Not shown: pass at "result" to read it.' } : {}),
  };
  return { content: [{ type: "text", text: JSON.stringify(answer) }] };
}

/** The schema of one part of the arguments or result, found by its dotted path. */
function describePart(tool: ToolDefinition, at: string): CallToolResult {
  const [root, ...steps] = at.split(".");
  const output = tool.outputSchema;
  const schema = root === "arguments" ? listedInputSchema(tool.inputSchema) : root === "result" && output ? briefly(output) : undefined;
  if (schema === undefined)
    return errorResult(`describe_operation: at must start with "arguments" or "result", as the notes in ${tool.name}'s schemas say`);
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const found = partAt(schema, defs, steps);
  if (found === undefined) return errorResult(`describe_operation: ${tool.name} has no part at "${excerpt(at, 120)}"`);
  const part = withDefinitions(found, defs);
  const { schema: fitted } = fitSchema(part, { maxBytes: DESCRIBE_LIMITS.part, at, keepRequired: false });
  return { content: [{ type: "text", text: JSON.stringify({ name: tool.name, at, schema: fitted }) }] };
}

/**
 * The subschema a path of property names leads to, through `$ref`s, combinator branches and array items; a name
 * with dots is matched whole when no shorter one is a property.
 */
function partAt(schema: JsonSchema, defs: Record<string, unknown>, steps: readonly string[]): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (let index = 0; index < steps.length && node !== undefined; index++) {
    let name = steps[index] ?? "";
    let next = propertyOf(node, name, defs, 0);
    while (next === undefined && index + 1 < steps.length) {
      index++;
      name = `${name}.${steps[index]}`;
      next = propertyOf(node, name, defs, 0);
    }
    node = next;
  }
  return node;
}

/** A property's schema under a node, looking through references, variants and items (a few levels at most). */
function propertyOf(node: JsonSchema, name: string, defs: Record<string, unknown>, depth: number): JsonSchema | undefined {
  if (depth > 8) return undefined;
  const properties = node.properties;
  const own = isRecord(properties) && Object.hasOwn(properties, name) ? properties[name] : undefined;
  if (isRecord(own)) return own;
  const key = refKey(node.$ref);
  const def = key !== undefined && Object.hasOwn(defs, key) ? defs[key] : undefined;
  const inner = [
    ...(isRecord(def) ? [def] : []),
    ...(isRecord(node.items) ? [node.items] : []),
    ...["allOf", "anyOf", "oneOf"].flatMap((keyword) => {
      const list: unknown = node[keyword];
      return Array.isArray(list) ? list : [];
    }),
  ];
  for (const candidate of inner) {
    const found = isRecord(candidate) ? propertyOf(candidate, name, defs, depth + 1) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A part with the definitions it reaches, so it reads on its own. */
function withDefinitions(part: JsonSchema, defs: Record<string, unknown>): JsonSchema {
  const kept = new Set<string>();
  const pending = referencedKeys(part);
  for (let key = pending.shift(); key !== undefined; key = pending.shift()) {
    if (kept.has(key) || !Object.hasOwn(defs, key)) continue;
    kept.add(key);
    const def = defs[key];
    if (isRecord(def)) for (const inner of referencedKeys(def)) pending.push(inner);
  }
  const { $defs: _, ...own } = part;
  if (kept.size === 0) return own;
  const listed: JsonSchema = {};
  for (const key of Object.keys(defs)) if (kept.has(key)) setOwn(listed, key, defs[key]);
  return setOwn(own, "$defs", listed);
}

/**
 * `describe_operation`: what a discovery server lists to read an operation, and what a tools-mode server lists when
 * some tool's listing was cut to fit (its notes name the `at` to pass). Its answer is one JSON text.
 */
export function describeToolDefinition(api: string, finder?: string): ServedTool {
  return {
    name: DESCRIBE_OPERATION,
    title: "Describe an operation",
    description:
      `An operation of ${api} in full: the JSON Schema of its arguments, its whole description, method and path, its ` +
      'annotations and the credentials it needs; the schema of its result with at "result". Parts too large to show at once become notes naming ' +
      `the \`at\` that shows them (e.g. "arguments.body.shipping"). ${finder ? `Pass the name ${finder} gave.` : "Pass a tool's name."}`,
    inputSchema: {
      type: "object",
      properties: {
        name: {
          type: "string",
          maxLength: 200,
          description: finder ? "The operation's name (or its operationId, or `METHOD /path`)." : "The tool's name.",
        },
        at: {
          type: "string",
          maxLength: 500,
          description: 'Only this part: "arguments" or "result", or a path into one, e.g. "arguments.body.shipping".',
        },
      },
      required: ["name"],
      additionalProperties: false,
    },
    annotations: { title: "Describe an operation", ...READ_ONLY },
  };
}

/** Tools mode's `describe_operation`: a tool's whole description and schemas, or one part of them. */
export function describeTool(
  tools: ReadonlyMap<string, ToolDefinition>,
  args: Record<string, unknown>,
  withSignature: boolean,
): CallToolResult {
  const stray = Object.keys(args).find((key) => key !== "name" && key !== "at");
  if (stray !== undefined) return errorResult(`${DESCRIBE_OPERATION}: unknown argument "${excerpt(stray, 40)}"; it takes name and at`);
  const tool = typeof args.name === "string" ? tools.get(args.name) : undefined;
  if (tool) return describeOperation(tool, args.at, withSignature);
  const name = typeof args.name === "string" ? args.name : "";
  return errorResult(`${DESCRIBE_OPERATION}: no tool is named "${excerpt(name, 80)}"${didYouMean(name, tools.keys())}`);
}
