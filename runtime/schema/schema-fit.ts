import { jsonLongerThan, jsonText } from "../base/json-text.js";
import { isRecord, setOwn } from "../base/own-property.js";
import type { JsonSchema } from "../base/tool.js";
import { mapSubschemas, refKey, SUBSCHEMA_LISTS } from "./schema-walk.js";

/** How a schema is fitted to a size: where it sits (for the pointers its cut parts carry) and what must stay. */
export interface FitOptions {
  /** Bytes of JSON the schema may take. */
  maxBytes: number;
  /** The `at` path of the schema's root in `describe_operation` (`arguments`, `result`). */
  at: string;
  /** Inputs: properties on a required path are never cut, so the listing stays enough to call. */
  keepRequired: boolean;
}

/** A schema fitted to a size, and whether anything was cut. */
export interface Fitted {
  schema: JsonSchema;
  cut: boolean;
}

/** Characters of a description kept when descriptions are shortened: its first sentence, at most this long. */
const SHORT_DESCRIPTION = 160;
/** Bytes of JSON under which a part is never cut into a note. */
const SMALL_PART = 400;
/** Property names a cut object names in its description. */
const NAMED_FIELDS = 12;

/**
 * A schema within `maxBytes` of JSON, said more briefly only as far as needed: first every description becomes its
 * first sentence, then objects nested deeper than some level become `{type, description}` naming their fields and the
 * `describe_operation` path that shows them, the level lowered until the schema fits (or only the root's properties
 * are left). Nothing else changes; a schema that fits is returned as it is.
 */
export function fitSchema(schema: JsonSchema, options: FitOptions): Fitted {
  if (jsonText(schema).length <= options.maxBytes) return { schema, cut: false };
  const short = shortenDescriptions(schema);
  if (jsonText(short).length <= options.maxBytes) return { schema: short, cut: true };
  const deepest = depthOf(short);
  let fitted = short;
  for (let level = deepest - 1; level >= 1; level--) {
    fitted = cutBelow(short, level, options);
    if (jsonText(fitted).length <= options.maxBytes) return { schema: fitted, cut: true };
  }
  // Still too large with only the root's properties (Stripe's invoice has 80): results keep their names and types.
  return { schema: options.keepRequired ? fitted : withoutInnerDescriptions(fitted), cut: true };
}

/** The first sentence of a description (at most 160 characters). */
export function firstSentence(text: string): string {
  const paragraph = text.trim().split(/\n\s*\n/)[0] ?? "";
  const sentence = /^[\s\S]*?[.!?](?=\s|$)/.exec(paragraph)?.[0] ?? paragraph;
  const line = sentence.replace(/\s+/g, " ").trim();
  return line.length > SHORT_DESCRIPTION ? `${line.slice(0, SHORT_DESCRIPTION - 1)}…` : line;
}

function shortenDescriptions(node: JsonSchema): JsonSchema {
  const out = mapSubschemas(node, shortenDescriptions);
  if (typeof out.description === "string") out.description = firstSentence(out.description);
  return out;
}

/** The schema with descriptions only at its root and its definitions' roots (and notes' pointers). */
function withoutInnerDescriptions(schema: JsonSchema): JsonSchema {
  const strip = (node: JsonSchema): JsonSchema => {
    const out = mapSubschemas(node, strip);
    // A note keeps where to read the part it stands for.
    const pointer = typeof out.description === "string" ? /More: describe_operation at "[^"]*"\./.exec(out.description)?.[0] : undefined;
    if (pointer !== undefined) out.description = pointer;
    else delete out.description;
    return out;
  };
  const keepOwn = (node: JsonSchema): JsonSchema => {
    const out = mapSubschemas(node, strip);
    if (node.description !== undefined) out.description = node.description;
    return out;
  };
  const out = keepOwn(schema);
  if (isRecord(schema.$defs)) {
    const defs: JsonSchema = {};
    for (const [key, def] of Object.entries(schema.$defs)) setOwn(defs, key, isRecord(def) ? keepOwn(def) : def);
    out.$defs = defs;
  }
  return out;
}

/** The nesting of properties under a schema (through `$defs`, each definition counted once). */
function depthOf(schema: JsonSchema): number {
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const memo = new Map<string, number>();
  const of = (node: unknown, seen: ReadonlySet<string>): number => {
    if (!isRecord(node)) return 0;
    const key = refKey(node.$ref);
    let deepest = 0;
    if (key !== undefined && !seen.has(key) && Object.hasOwn(defs, key)) {
      const known = memo.get(key);
      const depth = known ?? of(defs[key], new Set([...seen, key]));
      memo.set(key, depth);
      deepest = depth;
    }
    for (const child of childrenOf(node)) deepest = Math.max(deepest, child.step + of(child.schema, seen));
    return deepest;
  };
  return of(schema, new Set());
}

/** A node's subschemas, each with the nesting it adds: 1 for a property's value, 0 for items and combinator branches. */
function childrenOf(node: JsonSchema): { schema: unknown; step: number; name?: string; required?: boolean }[] {
  const children: { schema: unknown; step: number; name?: string; required?: boolean }[] = [];
  const required = Array.isArray(node.required) ? node.required : [];
  if (isRecord(node.properties))
    for (const [name, child] of Object.entries(node.properties))
      children.push({ schema: child, step: 1, name, required: required.includes(name) });
  for (const keyword of ["additionalProperties", "patternProperties"])
    if (isRecord(node[keyword])) children.push({ schema: node[keyword], step: 1 });
  if (isRecord(node.items)) children.push({ schema: node.items, step: 0 });
  for (const keyword of SUBSCHEMA_LISTS) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const child of list) children.push({ schema: child, step: 0 });
  }
  return children;
}

/** Where a definition is first reached: its nesting, path, and whether it lies on a required path. */
interface Reach {
  depth: number;
  at: string;
  kept: boolean;
}

/**
 * The schema with every object or definition met at nesting `level` or deeper (outside a required path, for inputs)
 * replaced by a note; definitions only notes reach are left out.
 */
function cutBelow(schema: JsonSchema, level: number, options: FitOptions): JsonSchema {
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const { $defs: _, ...root } = schema;
  const reached = new Map<string, Reach>();
  const pending: string[] = [];
  const visit = (node: JsonSchema, depth: number, at: string, kept: boolean): JsonSchema => {
    const key = refKey(node.$ref);
    const found = key !== undefined && Object.hasOwn(defs, key) ? defs[key] : undefined;
    const def = isRecord(found) ? found : undefined;
    if (key !== undefined && def !== undefined) {
      const known = reached.get(key);
      if (known !== undefined && (known.depth <= depth || known.kept)) return node;
      if (depth >= level && !kept) return note(node, def, at);
      if (known === undefined || depth < known.depth || (kept && !known.kept)) {
        reached.set(key, { depth, at, kept: kept || (known?.kept ?? false) });
        pending.push(key);
      }
      return node;
    }
    // A part smaller than a note would leave little to save: it stays (a `metadata` map, a list of strings).
    if (depth >= level && !kept && isStructured(node) && (jsonLongerThan(node, SMALL_PART) || node.$ref !== undefined))
      return note(node, node, at);
    const out: JsonSchema = {};
    const required = Array.isArray(node.required) ? node.required : [];
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === "properties" && isRecord(value)) {
        const properties: JsonSchema = {};
        for (const [name, child] of Object.entries(value))
          setOwn(properties, name, isRecord(child) ? visit(child, depth + 1, `${at}.${name}`, kept && required.includes(name)) : child);
        setOwn(out, keyword, properties);
      } else if ((keyword === "additionalProperties" || keyword === "items") && isRecord(value))
        setOwn(out, keyword, visit(value, keyword === "items" ? depth : depth + 1, at, kept && keyword === "items"));
      else if (SUBSCHEMA_LISTS.includes(keyword) && Array.isArray(value))
        setOwn(
          out,
          keyword,
          value.map((child) => (isRecord(child) ? visit(child, depth, at, kept) : child)),
        );
      else setOwn(out, keyword, value);
    }
    return out;
  };
  const out = visit(root, 0, options.at, options.keepRequired);
  const listed = new Map<string, JsonSchema>();
  for (let key = pending.shift(); key !== undefined; key = pending.shift()) {
    const reach = reached.get(key);
    const def = defs[key];
    if (reach === undefined || !isRecord(def)) continue;
    listed.set(key, visit(def, reach.depth, reach.at, reach.kept));
  }
  if (listed.size === 0) return out;
  const listedDefs: JsonSchema = {};
  for (const key of Object.keys(defs)) if (listed.has(key)) setOwn(listedDefs, key, listed.get(key));
  return setOwn(out, "$defs", listedDefs);
}

/** Whether a node has parts a note would stand for (properties, items, variants). */
function isStructured(node: JsonSchema): boolean {
  return ["properties", "additionalProperties", "patternProperties", "items", ...SUBSCHEMA_LISTS].some(
    (keyword) => isRecord(node[keyword]) || Array.isArray(node[keyword]),
  );
}

/** What stands for a cut part: its type and description, the fields it has, and where `describe_operation` shows them. */
function note(node: JsonSchema, shape: JsonSchema, at: string): JsonSchema {
  const type = typeOf(shape);
  const fields = fieldNames(shape);
  const own = descriptionOf(node) || descriptionOf(shape);
  const parts = [own === "" ? "" : firstSentence(own)];
  if (fields.length > 0) parts.push(`Fields: ${fields.slice(0, NAMED_FIELDS).join(", ")}${fields.length > NAMED_FIELDS ? ", …" : ""}.`);
  parts.push(`More: describe_operation at "${at}".`);
  return { ...(type ? { type } : {}), description: parts.filter((part) => part !== "").join(" ") };
}

/** A node's description, or its only non-null variant's (a nullable `$ref` is written `anyOf: [ref, null]`). */
function descriptionOf(node: JsonSchema): string {
  if (typeof node.description === "string") return node.description;
  const variants = (Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : []).filter(
    (variant) => isRecord(variant) && variant.type !== "null",
  );
  return variants.length === 1 && isRecord(variants[0]) ? descriptionOf(variants[0]) : "";
}

/** The JSON type a shape declares, or its variants' types; `object` or `array` by its keywords; else none. */
function typeOf(shape: JsonSchema): string | string[] | undefined {
  const { type } = shape;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.filter((each): each is string => typeof each === "string");
  if (isRecord(shape.properties) || isRecord(shape.additionalProperties)) return "object";
  if (isRecord(shape.items)) return "array";
  const variants = Array.isArray(shape.anyOf) ? shape.anyOf : Array.isArray(shape.oneOf) ? shape.oneOf : [];
  const types = new Set<string>();
  for (const variant of variants) {
    const each = isRecord(variant) ? typeOf(variant) : undefined;
    if (each === undefined) return undefined;
    for (const name of Array.isArray(each) ? each : [each]) types.add(name);
  }
  if (types.size === 0) return undefined;
  return types.size === 1 ? [...types][0] : [...types];
}

/** The property names an object shape lists, its variants' included (an array's items' for an array). */
function fieldNames(shape: JsonSchema): string[] {
  const names = new Set<string>();
  const add = (node: unknown, depth: number) => {
    if (!isRecord(node) || depth > 3) return;
    if (isRecord(node.properties)) for (const name of Object.keys(node.properties)) names.add(name);
    if (isRecord(node.items)) add(node.items, depth + 1);
    for (const keyword of SUBSCHEMA_LISTS) {
      const list = node[keyword];
      if (Array.isArray(list)) for (const child of list) add(child, depth + 1);
    }
  };
  add(shape, 0);
  return [...names];
}
