import { isRecord } from "../base/own-property.js";
import type { JsonSchema, ToolDefinition } from "../base/tool.js";

/** Characters of TypeScript one signature may take; deeper parts are written `…`. */
const MAX_SIGNATURE = 2_000;
/** Nesting levels spelled out before a part is written `…`. */
const MAX_DEPTH = 4;

/** How a schema is written as a type: for a model to read (deep parts `…`), or for the compiler to check against. */
interface Writing {
  maxDepth: number;
  /** What stands for a part not spelled out: `…` for a reader, `unknown` for the compiler. */
  elided: string;
  /** Objects whose schema does not close them take other members too (the compiler then lets them through). */
  open: boolean;
}

const FOR_READER: Writing = { maxDepth: MAX_DEPTH, elided: "…", open: false };
/** For the compiler: deeper, and every part it cannot spell out is `unknown`, so a check never refuses what the call takes. */
const FOR_COMPILER: Writing = { maxDepth: 8, elided: "unknown", open: true };

/**
 * An operation as code mode's `api` offers it, as a TypeScript signature: `api.name(args: {…}): Promise<{…}>`, the
 * arguments and result read from the tool's JSON Schemas (local `$defs` followed once, deep parts elided).
 */
export function apiSignature(tool: ToolDefinition): string {
  const args = typeText(tool.inputSchema, tool.inputSchema, 0, new Set(), FOR_READER);
  const result = tool.outputSchema ? typeText(tool.outputSchema, tool.outputSchema, 0, new Set(), FOR_READER) : "unknown";
  const text = `api.${propertyName(tool.name)}(args: ${args}): Promise<${result}>`;
  return text.length > MAX_SIGNATURE ? `${text.slice(0, MAX_SIGNATURE - 1)}…` : text;
}

/**
 * The declarations a `run_code` program is checked against: `api` with one method per operation (its arguments as
 * their schema says, a missing name or a wrong type an error; its result \`any\`, since what an API answers wins over
 * what its document claims) and `console`. Valid TypeScript whatever the schemas hold: names are quoted, and what
 * cannot be spelled out is `unknown`.
 */
export function apiDeclarations(tools: readonly ToolDefinition[]): string {
  const methods = tools.map((tool) => {
    const args = typeText(tool.inputSchema, tool.inputSchema, 0, new Set(), FOR_COMPILER);
    const optional = !Array.isArray(tool.inputSchema.required) || tool.inputSchema.required.length === 0;
    return `  ${propertyName(tool.name)}(args${optional ? "?" : ""}: ${args}): Promise<any>;`;
  });
  return [
    "declare const api: {",
    ...methods,
    "};",
    "declare const console: { log(...values: unknown[]): void; info(...values: unknown[]): void; warn(...values: unknown[]): void; error(...values: unknown[]): void };",
    "",
  ].join("\n");
}

/** A property or member name as TypeScript writes it: bare when it is an identifier, quoted otherwise. */
function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

function typeText(schema: unknown, root: JsonSchema, depth: number, seen: ReadonlySet<string>, writing: Writing): string {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (!isRecord(schema)) return "unknown";
  if (depth > writing.maxDepth) return writing.elided;
  const ref = schema.$ref;
  if (typeof ref === "string") {
    const key = /^#\/\$defs\/([^/]+)$/.exec(ref)?.[1];
    const target = key !== undefined && isRecord(root.$defs) ? root.$defs[key] : undefined;
    // A reader sees the definition's name where it recurs; the compiler, which knows no such name, takes anything.
    if (key === undefined || target === undefined || seen.has(key)) return writing.open ? "unknown" : (key ?? "unknown");
    return typeText(target, root, depth, new Set([...seen, key]), writing);
  }
  if ("const" in schema) return JSON.stringify(schema.const) ?? "unknown";
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ") || "never";
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) return unique(branches.map((branch) => typeText(branch, root, depth + 1, seen, writing))).join(" | ");
  }
  if (Array.isArray(schema.allOf))
    return unique(schema.allOf.map((part) => grouped(typeText(part, root, depth + 1, seen, writing)))).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const written = types.map((type) => typeOf(type, schema, root, depth, seen, writing));
  return unique(written).join(" | ");
}

/** A type in parentheses when it is a union or an intersection, so an operator around it binds as written. */
function grouped(text: string): string {
  return /[|&]/.test(text) ? `(${text})` : text;
}

function typeOf(type: unknown, schema: JsonSchema, root: JsonSchema, depth: number, seen: ReadonlySet<string>, writing: Writing): string {
  if (type === "string" || type === "boolean" || type === "null") return type;
  if (type === "integer" || type === "number") return "number";
  if (type === "array") {
    const items = typeText(schema.items, root, depth + 1, seen, writing);
    return /[|& ]/.test(items) ? `(${items})[]` : `${items}[]`;
  }
  if (type === "object" || (type === undefined && isRecord(schema.properties))) {
    const properties = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
    if (properties.length === 0) return "Record<string, unknown>";
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const members = properties.map(
      ([name, property]) => `${propertyName(name)}${required.has(name) ? "" : "?"}: ${typeText(property, root, depth + 1, seen, writing)}`,
    );
    // Fields a schema leaves open are forwarded (the tolerance rule): the compiler takes them too.
    if (writing.open && schema.additionalProperties !== false) members.push("[key: string]: unknown");
    return `{ ${members.join("; ")} }`;
  }
  return "unknown";
}

function unique(texts: readonly string[]): string[] {
  return [...new Set(texts)];
}
