import { isRecord, setOwn } from "../base/own-property.js";
import type { JsonSchema } from "../base/tool.js";
import { eachSubschema, mapSubschemas, refKey } from "./schema-walk.js";

/**
 * The input schema `tools/list` shows: the same arguments, said more briefly. A `$defs` entry used once is written
 * where it is used; `readOnly` (which says nothing of an argument, and leads a form to lock a field) is left out. A
 * closed root keeps its `additionalProperties: false`: clients that build forms from the schema see the rule the server
 * applies. What validates is the tool's own schema.
 */
export function listedInputSchema(schema: JsonSchema): JsonSchema {
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const inlined = inlinableKeys(schema, defs);
  const expand = (node: JsonSchema): JsonSchema => {
    const key = refKey(node.$ref);
    const def = key !== undefined && inlined.has(key) ? defs[key] : undefined;
    if (isRecord(def)) {
      const { $ref: _, ...siblings } = node;
      const merged = copyOwn(def);
      for (const [keyword, value] of Object.entries(siblings)) setOwn(merged, keyword, value);
      return expand(merged);
    }
    const out = mapSubschemas(node, expand);
    delete out.readOnly;
    return out;
  };
  const { $defs: _, ...root } = schema;
  const listed = expand(root);
  const kept = keptDefinitions(listed, defs, inlined, expand);
  if (kept !== undefined) setOwn(listed, "$defs", kept);
  return listed;
}

/** Keys referenced exactly once, from a node whose other keywords the definition does not also have. */
function inlinableKeys(schema: JsonSchema, defs: Record<string, unknown>): Set<string> {
  const uses = new Map<string, number>();
  const clashing = new Set<string>();
  eachSubschema(
    schema,
    (node) => {
      const key = refKey(node.$ref);
      if (key === undefined) return;
      uses.set(key, (uses.get(key) ?? 0) + 1);
      const def = defs[key];
      if (!isRecord(def) || Object.keys(node).some((keyword) => keyword !== "$ref" && Object.hasOwn(def, keyword))) clashing.add(key);
      else if (referencesItself(key, def)) clashing.add(key);
    },
    true,
  );
  return new Set([...uses].filter(([key, count]) => count === 1 && !clashing.has(key) && Object.hasOwn(defs, key)).map(([key]) => key));
}

function referencesItself(key: string, def: JsonSchema): boolean {
  let found = false;
  eachSubschema(def, (node) => {
    if (refKey(node.$ref) === key) found = true;
  });
  return found;
}

/** The definitions still referenced once the single-use ones are written in place, in their document order. */
function keptDefinitions(
  root: JsonSchema,
  defs: Record<string, unknown>,
  inlined: ReadonlySet<string>,
  expand: (node: JsonSchema) => JsonSchema,
): JsonSchema | undefined {
  const reached = new Map<string, JsonSchema>();
  const pending = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    eachSubschema(node, (schema) => {
      const key = refKey(schema.$ref);
      const def = key !== undefined ? defs[key] : undefined;
      if (key === undefined || inlined.has(key) || reached.has(key) || !isRecord(def) || !Object.hasOwn(defs, key)) return;
      const expanded = expand(def);
      reached.set(key, expanded);
      pending.push(expanded);
    });
  }
  if (reached.size === 0) return undefined;
  const kept: JsonSchema = {};
  for (const key of Object.keys(defs)) {
    const def = reached.get(key);
    if (def !== undefined) setOwn(kept, key, def);
  }
  return kept;
}

/** A shallow copy made with own-property sets (a `__proto__` key stays a key). */
function copyOwn(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) setOwn(out, key, value);
  return out;
}
