import { isRecord } from "./own-property.js";
import type { JsonSchema } from "./tool.js";

/** Longest type text `describe_operation` shows for one schema. */
const MAX_TEXT = 8_000;
/** Enum members and nesting shown before eliding. */
const MAX_MEMBERS = 20;
const MAX_DEPTH = 8;

/**
 * A JSON Schema as TypeScript type text, for a model reading `describe_operation`: the root type, then one
 * `type Name = …;` per `$defs` entry it reaches. Display only (the schemas stay the contract); cut at 8,000 characters.
 */
export function typeText(schema: JsonSchema): string {
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const named = new Map<string, string>();
  const pending: string[] = [];
  const refName = (ref: string): string => {
    const key = decodeURIComponent(ref.replace(/^#\/\$defs\//, ""))
      .replace(/~1/g, "/")
      .replace(/~0/g, "~");
    if (!named.has(key)) {
      named.set(key, pascal(key));
      pending.push(key);
    }
    return named.get(key) ?? "unknown";
  };
  const root = render(schema, 0, refName);
  const parts = [root];
  let length = root.length;
  for (let key = pending.shift(); key !== undefined && length < MAX_TEXT; key = pending.shift()) {
    const line = `type ${named.get(key)} = ${render(defs[key], 0, refName)};`;
    parts.push(line);
    length += line.length;
  }
  const text = parts.join("\n");
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)} /* … cut at ${MAX_TEXT} characters */` : text;
}

/** `nullable-simple-user` → `NullableSimpleUser`. */
function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");
  return /^[A-Za-z_]/.test(joined) ? joined : `T${joined}`;
}

function render(schema: unknown, depth: number, refName: (ref: string) => string): string {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (!isRecord(schema)) return "unknown";
  if (depth > MAX_DEPTH) return "unknown /* deeper */";
  const next = (child: unknown) => render(child, depth + 1, refName);
  if (typeof schema.$ref === "string") return schema.$ref.startsWith("#/$defs/") ? refName(schema.$ref) : "unknown";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) {
    const members = schema.enum.slice(0, MAX_MEMBERS).map((value) => JSON.stringify(value));
    return members.join(" | ") + (schema.enum.length > MAX_MEMBERS ? " | …" : "");
  }
  for (const keyword of ["anyOf", "oneOf"] as const) {
    const list = schema[keyword];
    if (Array.isArray(list) && list.length > 0) return union(list.map(next));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return schema.allOf.map((part) => group(next(part))).join(" & ");
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type): type is string => typeof type === "string");
  if (types.length === 0) return isRecord(schema.properties) ? objectText(schema, next) : "unknown";
  return union(types.map((type) => primitive(type, schema, next)));
}

function primitive(type: string, schema: JsonSchema, next: (child: unknown) => string): string {
  if (type === "integer" || type === "number") return "number";
  if (type === "string" || type === "boolean" || type === "null") return type;
  if (type === "array") return `${group(next(schema.items))}[]`;
  if (type === "object") return objectText(schema, next);
  return "unknown";
}

function objectText(schema: JsonSchema, next: (child: unknown) => string): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const members = Object.entries(properties).map(([name, child]) => {
    const key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
    return `${key}${required.has(name) ? "" : "?"}: ${next(child)}`;
  });
  const extra = schema.additionalProperties;
  if (isRecord(extra)) members.push(`[key: string]: ${next(extra)}`);
  if (members.length === 0) return extra === false ? "{}" : "Record<string, unknown>";
  return `{ ${members.join("; ")} }`;
}

/** Alternatives once each, in order. */
function union(alternatives: string[]): string {
  return [...new Set(alternatives)].join(" | ");
}

/** A type that is safe to suffix with `[]` or join with `&`. */
function group(text: string): string {
  return /^[\w$.<>"]+$/.test(text) ? text : `(${text})`;
}
