import { jsonText } from "oapi-mcp-gen-runtime";
import { isJsonObject, type JsonObject, type JsonValue } from "../../openapi/document/index.js";
import { defsKey, schemaRefs } from "./schema-refs.js";

/** A schema cut down to the limit, and how much of its `$defs` it lost. */
export interface TrimmedSchema {
  schema: JsonObject;
  /** Definitions kept as placeholders. */
  collapsed: number;
  /** Definitions left out (only placeholders reached them). */
  dropped: number;
  bytes: number;
}

/**
 * Fits a tool schema into `maxBytes` of JSON by expanding its `$defs` only to the deepest reference level that fits:
 * definitions one level further become placeholders that keep their `type` and say why, and those beyond are left
 * out. The root is never cut, so a placeholder only ever loosens validation. Undefined when the schema fits.
 */
export function trimSchema(schema: JsonObject, maxBytes: number): TrimmedSchema | undefined {
  const defs = isJsonObject(schema.$defs) ? schema.$defs : undefined;
  if (defs === undefined || maxBytes <= 0) return undefined;
  // Measured piece by piece (the whole is never serialised), as `{root,"$defs":{"key":def,…}}`.
  const { $defs: _, ...root } = schema;
  const rootBytes = byteLength(root) + ',"$defs":{}'.length;
  const wholeBytes = new Map(Object.entries(defs).map(([key, def]) => [key, entryBytes(key, def)]));
  let total = rootBytes - 1;
  for (const bytes of wholeBytes.values()) total += bytes;
  if (total <= maxBytes) return undefined;
  const depths = referenceDepths(root, defs);
  const deepest = Math.max(0, ...depths.values());
  const placeholders = new Map([...depths.keys()].map((key) => [key, placeholder(defs[key], maxBytes)]));
  const placeholderBytes = new Map([...placeholders].map(([key, value]) => [key, entryBytes(key, value)]));
  const sizeAt = (level: number) => {
    let bytes = rootBytes;
    for (const [key, depth] of depths) {
      if (depth <= level) bytes += wholeBytes.get(key) ?? 0;
      else if (depth === level + 1) bytes += placeholderBytes.get(key) ?? 0;
    }
    return bytes;
  };
  let level = Math.max(0, deepest - 1);
  while (level > 0 && sizeAt(level) > maxBytes) level--;
  const kept: JsonObject = {};
  let collapsed = 0;
  let dropped = 0;
  for (const [key, def] of Object.entries(defs)) {
    const depth = depths.get(key);
    const stand = placeholders.get(key);
    if (depth !== undefined && depth <= level) kept[key] = def;
    else if (depth === level + 1 && stand !== undefined) {
      kept[key] = stand;
      collapsed++;
    } else dropped++;
  }
  const trimmed = { ...root, $defs: kept };
  return { schema: trimmed, collapsed, dropped, bytes: byteLength(trimmed) };
}

/** Reference distance of each definition from the root: 1 for those the root names, and so on (breadth first). */
function referenceDepths(root: JsonObject, defs: JsonObject): Map<string, number> {
  const depths = new Map<string, number>();
  let frontier = refsOf(root);
  for (let level = 1; frontier.length > 0; level++) {
    const next: string[] = [];
    for (const key of frontier) {
      const def = defs[key];
      if (depths.has(key) || !Object.hasOwn(defs, key) || !isJsonObject(def)) continue;
      depths.set(key, level);
      for (const inner of refsOf(def)) next.push(inner);
    }
    frontier = next;
  }
  return depths;
}

function refsOf(schema: JsonObject): string[] {
  const keys: string[] = [];
  schemaRefs(schema, (ref) => {
    const key = defsKey(ref);
    if (key !== undefined) keys.push(key);
  });
  return keys;
}

/** What stands in for a definition past the limit: its type, and a note that admits any value of it. */
function placeholder(def: JsonValue | undefined, maxBytes: number): JsonObject {
  const type = typeof def === "object" && def !== null && !Array.isArray(def) ? def.type : undefined;
  return {
    ...(typeof type === "string" || Array.isArray(type) ? { type } : {}),
    description: `Not expanded: this tool's schema is limited to ${maxBytes} bytes (schemas.maxBytes).`,
  };
}

/** Bytes of one `"key":value,` entry of `$defs`. */
function entryBytes(key: string, value: unknown): number {
  return byteLength(key) + byteLength(value) + 2;
}

/** Bytes of a value's JSON (a definition's text is known already: tools share definitions' objects). */
function byteLength(value: unknown): number {
  return Buffer.byteLength(jsonText(value));
}
