import { jsonText } from "./json-text.js";
import { isRecord, setOwn } from "./own-property.js";
import { refKey, refTo } from "./schema-walk.js";
import type { JsonSchema } from "./tool.js";

/**
 * Merges `$defs` entries that say the same thing, for a schema whose every use of a definition already admits null
 * (the tolerant form): there a definition's own `null` adds nothing, so each comes here without it (`withoutRootNull`),
 * and twins such as `simple-user` and `nullable-simple-user` become one entry (the shorter key stays) with every
 * `$ref` to the other rewritten. Repeated until nothing merges, since merged references can make more entries equal.
 */
export function mergeTwins(schema: JsonSchema): JsonSchema {
  if (!isRecord(schema.$defs)) return schema;
  let current = schema;
  for (;;) {
    const renamed = twins(current.$defs as Record<string, unknown>);
    if (renamed.size === 0) return current;
    const rewritten = rewriteRefs(current, renamed) as JsonSchema;
    const kept = { ...(rewritten.$defs as Record<string, unknown>) };
    for (const key of renamed.keys()) delete kept[key];
    current = setOwn({ ...rewritten }, "$defs", kept);
  }
}

/**
 * A definition without `null` in its root `type` or `enum`. One that admits nothing but `null` (`enum: [null]`) becomes
 * `not: {}`: an empty `enum` or `type` list is not a valid schema, and clients refuse the whole tool list for one.
 */
export function withoutRootNull(def: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(def)) {
    if (key === "type" && Array.isArray(value) && value.includes("null")) {
      const types = value.filter((type) => type !== "null");
      if (types.length === 0) return { not: {} };
      setOwn(out, key, types.length === 1 ? types[0] : types);
    } else if (key === "type" && value === "null") return { not: {} };
    else if (key === "enum" && Array.isArray(value)) {
      const values = value.filter((item) => item !== null);
      if (values.length === 0) return { not: {} };
      setOwn(out, key, values);
    } else setOwn(out, key, value);
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

/**
 * A schema whose `#/$defs/` references to renamed keys name the kept ones: a part with no such reference in it is the
 * part itself (not a copy), so definitions shared between tools stay shared, and their JSON is known already.
 */
function rewriteRefs(node: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) {
    const items = node.map((item) => rewriteRefs(item, renamed));
    return items.some((item, index) => item !== node[index]) ? items : node;
  }
  if (!isRecord(node)) return node;
  const entries = Object.entries(node);
  let out: Record<string, unknown> | undefined;
  entries.forEach(([key, value], index) => {
    const from = key === "$ref" ? refKey(value) : undefined;
    const target = from === undefined ? undefined : renamed.get(from);
    const next = target === undefined ? rewriteRefs(value, renamed) : refTo(target);
    if (next !== value && out === undefined) {
      out = {};
      for (const [earlier, kept] of entries.slice(0, index)) setOwn(out, earlier, kept);
    }
    if (out !== undefined) setOwn(out, key, next);
  });
  return out ?? node;
}
