import { isRecord } from "../base/own-property.js";
import type { JsonSchema, ToolDefinition } from "../base/tool.js";

/** Characters of TypeScript one signature may take; deeper parts are written `…`. */
const MAX_SIGNATURE = 2_000;
/** Nesting levels spelled out before a part is written `…`. */
const MAX_DEPTH = 4;

/**
 * An operation as code mode's `api` offers it, as a TypeScript signature: `api.name(args: {…}): Promise<{…}>`, the
 * arguments and result read from the tool's JSON Schemas (local `$defs` followed once, deep parts elided).
 */
export function apiSignature(tool: ToolDefinition): string {
  const args = typeText(tool.inputSchema, tool.inputSchema, 0, new Set());
  const result = tool.outputSchema ? typeText(tool.outputSchema, tool.outputSchema, 0, new Set()) : "unknown";
  const text = `api.${propertyName(tool.name)}(args: ${args}): Promise<${result}>`;
  return text.length > MAX_SIGNATURE ? `${text.slice(0, MAX_SIGNATURE - 1)}…` : text;
}

/** A property or member name as TypeScript writes it: bare when it is an identifier, quoted otherwise. */
function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function typeText(schema: unknown, root: JsonSchema, depth: number, seen: ReadonlySet<string>): string {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (!isRecord(schema)) return "unknown";
  if (depth > MAX_DEPTH) return "…";
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const key = /^#\/\$defs\/([^/]+)$/.exec(ref)?.[1];
    const target = key !== undefined && isRecord(root.$defs) ? root.$defs[key] : undefined;
    if (key === undefined || target === undefined || seen.has(key)) return key ?? "unknown";
    return typeText(target, root, depth, new Set([...seen, key]));
  }
  if ("const" in schema) return JSON.stringify(schema.const) ?? "unknown";
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ") || "never";
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) return unique(branches.map((branch) => typeText(branch, root, depth + 1, seen))).join(" | ");
  }
  if (Array.isArray(schema.allOf)) return unique(schema.allOf.map((part) => typeText(part, root, depth + 1, seen))).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const written = types.map((type) => typeOf(type, schema, root, depth, seen));
  return unique(written).join(" | ");
}

function typeOf(type: unknown, schema: JsonSchema, root: JsonSchema, depth: number, seen: ReadonlySet<string>): string {
  if (type === "string" || type === "boolean" || type === "null") return type;
  if (type === "integer" || type === "number") return "number";
  if (type === "array") {
    const items = typeText(schema.items, root, depth + 1, seen);
    return /[|& ]/.test(items) ? `(${items})[]` : `${items}[]`;
  }
  if (type === "object" || (type === undefined && isRecord(schema.properties))) {
    const properties = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
    if (properties.length === 0) return "Record<string, unknown>";
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const members = properties.map(
      ([name, property]) => `${propertyName(name)}${required.has(name) ? "" : "?"}: ${typeText(property, root, depth + 1, seen)}`,
    );
    return `{ ${members.join("; ")} }`;
  }
  return "unknown";
}

function unique(texts: readonly string[]): string[] {
  return [...new Set(texts)];
}
