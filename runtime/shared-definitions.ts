import { jsonText } from "./json-text.js";
import { isRecord, setOwn } from "./own-property.js";
import { refKey, refTo } from "./schema-walk.js";
import type { JsonSchema } from "./tool.js";

/**
 * Merges `$defs` entries that say the same thing, for a schema whose every use of a definition already admits null
 * (the tolerant form): there a definition's own `null` adds nothing, so it is dropped from each definition's root,
 * and twins such as `simple-user` and `nullable-simple-user` become one entry (the shorter key stays) with every
 * `$ref` to the other rewritten. Repeated until nothing merges, since merged references can make more entries equal.
 */
export function mergeEquivalentDefinitions(schema: JsonSchema): JsonSchema {
  if (!isRecord(schema.$defs)) return schema;
  const defs: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(schema.$defs)) setOwn(defs, key, isRecord(def) ? withoutRootNull(def) : def);
  return mergeTwins(setOwn({ ...schema }, "$defs", defs));
}

/** The merging step alone, for `$defs` entries whose root `null` is already dropped. */
export function mergeTwins(schema: JsonSchema): JsonSchema {
  if (!isRecord(schema.$defs)) return schema;
  let current = schema;
  for (;;) {
    const renamed = twins(current.$defs as Record<string, unknown>);
    if (renamed.size === 0) return current;
    current = rewriteRefs(current, renamed) as JsonSchema;
    const kept = current.$defs as Record<string, unknown>;
    for (const key of renamed.keys()) delete kept[key];
  }
}

/** A definition without `null` in its root `type` or `enum`. */
export function withoutRootNull(def: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(def)) {
    if (key === "type" && Array.isArray(value) && value.includes("null")) {
      const types = value.filter((type) => type !== "null");
      setOwn(out, key, types.length === 1 ? types[0] : types);
    } else if (key === "enum" && Array.isArray(value))
      setOwn(
        out,
        key,
        value.filter((item) => item !== null),
      );
    else setOwn(out, key, value);
  }
  return out;
}

/** Keys whose definition repeats another's word for word, each with the key that stays (the shortest, then the first). */
function twins(defs: Record<string, unknown>): Map<string, string> {
  const keyByContent = new Map<string, string>();
  const renamed = new Map<string, string>();
  const keys = Object.keys(defs).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const content = jsonText(defs[key]);
    const kept = keyByContent.get(content);
    if (kept === undefined) keyByContent.set(content, key);
    else renamed.set(key, kept);
  }
  return renamed;
}

/** A copy of a schema whose `#/$defs/` references to renamed keys name the kept ones. */
function rewriteRefs(node: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, renamed));
  if (!isRecord(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const from = key === "$ref" ? refKey(value) : undefined;
    const target = from === undefined ? undefined : renamed.get(from);
    setOwn(out, key, target === undefined ? rewriteRefs(value, renamed) : refTo(target));
  }
  return out;
}
