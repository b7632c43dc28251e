import { isRecord, setOwn } from "../base/own-property.js";
import type { JsonSchema } from "../base/tool.js";

/** Keywords holding one subschema. */
export const SUBSCHEMA = [
  "items",
  "additionalProperties",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "not",
  "if",
  "then",
  "else",
];
/** Keywords holding a map of named subschemas. */
export const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** Keywords holding a list of subschemas. */
export const SUBSCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];

const DEFS_REF = "#/$defs/";

/** The `$defs` key a local `#/$defs/key` reference names, or undefined for any other reference. */
export function refKey(ref: unknown): string | undefined {
  return typeof ref === "string" && ref.startsWith(DEFS_REF) ? ref.slice(DEFS_REF.length) : undefined;
}

/** A reference to the `$defs` entry `key`. */
export function refTo(key: string): string {
  return `${DEFS_REF}${key}`;
}

/** A shallow copy of a schema node with each of its subschemas replaced by `map(subschema)`; values stay as they are. */
export function mapSubschemas(node: JsonSchema, map: (child: JsonSchema) => unknown): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (SUBSCHEMA.includes(key) && isRecord(value)) setOwn(out, key, map(value));
    else if (SUBSCHEMA_MAPS.includes(key) && isRecord(value)) {
      const entries: JsonSchema = {};
      for (const [name, child] of Object.entries(value)) setOwn(entries, name, isRecord(child) ? map(child) : child);
      setOwn(out, key, entries);
    } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value))
      setOwn(
        out,
        key,
        value.map((child) => (isRecord(child) ? map(child) : child)),
      );
    else setOwn(out, key, value);
  }
  return out;
}

/** Calls `visit` with every schema node under `node` (itself included), outside `$defs` unless `withDefs`. */
export function eachSubschema(node: JsonSchema, visit: (schema: JsonSchema) => void, withDefs = false): void {
  const stack: JsonSchema[] = [node];
  for (let schema = stack.pop(); schema !== undefined; schema = stack.pop()) {
    visit(schema);
    for (const [key, value] of Object.entries(schema)) {
      if (SUBSCHEMA.includes(key) && isRecord(value)) stack.push(value);
      else if (SUBSCHEMA_MAPS.includes(key) && isRecord(value) && (withDefs || schema !== node || key !== "$defs")) {
        for (const child of Object.values(value)) if (isRecord(child)) stack.push(child);
      } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) {
        for (const child of value) if (isRecord(child)) stack.push(child);
      }
    }
  }
}

/** The `$defs` keys a schema node references, outside its own `$defs`, in the order met. */
export function referencedKeys(node: JsonSchema): string[] {
  const keys: string[] = [];
  eachSubschema(node, (schema) => {
    const key = refKey(schema.$ref);
    if (key !== undefined) keys.push(key);
  });
  return keys;
}
