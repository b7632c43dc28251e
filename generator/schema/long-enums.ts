/**
 * Long enums before the draft-07 meta-schema check. Draft-07 requires an `enum`'s items to be unique, and Ajv checks
 * that by comparing every pair: an enum of 100,000 values took 39 s. Here repeats are found in linear time, by each
 * value's canonical JSON, and the check is shown a stand-in of one or two items that it judges as it judges the whole.
 */
import { canonicalJson, repeatedItems } from "oapi-mcp-gen-runtime";

/** An `enum` longer than this is checked here and replaced by a stand-in: shorter ones cost Ajv little. */
export const LONG_ENUM = 256;

/** The values without repeats (JSON Schema's equality: `{a,b}` repeats `{b,a}`), first occurrences kept in order. */
export function uniqueValues<T>(values: readonly T[]): T[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = canonicalJson(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A long enum's stand-in: a repeated pair when it has one (runtime/schema/unique-items.ts finds it), else one item, a non-string one if there is any.
 * Wherever the meta-schema reads an array under `enum` (an enum: non-empty and unique; a string array, under
 * `dependencies`: strings, unique; a schema: never an array), it judges the stand-in as it judges the whole.
 */
function standIn(values: readonly unknown[]): unknown[] {
  const repeat = repeatedItems(values);
  if (repeat) return [values[repeat.j], values[repeat.i]];
  return [values.find((value) => typeof value !== "string") ?? values[0]];
}

/** Whether a schema's JSON may hold an enum longer than LONG_ENUM: each of its items takes at least two characters. */
export function mayHoldLongEnum(text: string): boolean {
  return text.length > 2 * LONG_ENUM && text.includes('"enum":[');
}

/**
 * The schema with every array under an `enum` key longer than LONG_ENUM, at any depth, replaced by its stand-in; the
 * schema itself when it holds none. Values the meta-schema does not read (`default`, `examples`) may change too.
 */
export function withShortEnums(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return schema;
  if (Array.isArray(schema)) {
    const shown = schema.map(withShortEnums);
    return shown.some((item, index) => item !== schema[index]) ? shown : schema;
  }
  let copy: Record<string, unknown> | undefined;
  for (const key in schema) {
    if (!Object.hasOwn(schema, key)) continue;
    const value: unknown = Reflect.get(schema, key);
    const short = key === "enum" && Array.isArray(value) && value.length > LONG_ENUM ? standIn(value) : withShortEnums(value);
    if (short !== value) {
      copy ??= { ...schema };
      // A key named `__proto__` is an own property here as in the schema, not the copy's prototype.
      Object.defineProperty(copy, key, { value: short, enumerable: true, writable: true, configurable: true });
    }
  }
  return copy ?? schema;
}
