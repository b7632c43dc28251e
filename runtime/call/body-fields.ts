import { isRecord, setOwn } from "../base/own-property.js";
import { closest } from "../base/suggest.js";
import type { JsonSchema } from "../base/tool.js";

/** A field a body carries that its schema names nowhere at that place, with the names it does take there. */
export interface UnknownField {
  /** Where it stands: `body.attachments[0].sizee`. */
  path: string;
  name: string;
  /** The known name it is a near miss of, when it is one (a likely typo). */
  meant?: string;
  known: readonly string[];
}

/** What a body becomes before it is sent: read-only fields dropped at every depth, and the fields its schema does not name. */
export interface BodyFields {
  sent: unknown;
  unknown: UnknownField[];
}

/** At most this many unknown fields are reported: a caller's 100,000 made-up fields cost one pass, not a report each. */
const MAX_REPORTED = 20;

/** What a schema says of an object value at one place: its properties' schemas, and whether other names are its own. */
interface ObjectShape {
  properties: Map<string, JsonSchema[]>;
  /** Names beyond `properties` are the schema's own (a map's entries, a pattern's): never unknown. */
  openByDesign: boolean;
  /** Schemas for entries beyond `properties` (`additionalProperties` as a schema). */
  extra: JsonSchema[];
}

/**
 * Walks a body against its schema (its `$ref`s resolved in `defs`; `allOf`, `anyOf` and `oneOf` branches read
 * together): a property whose schema says `readOnly` is dropped wherever it stands, as are the root names in
 * `dropAtRoot` (read-only fields and the config's `ignore`); a property the schema names nowhere at its place is
 * listed (and kept: an open schema forwards what the document left out). The value has passed validation, so its
 * nesting is bounded; the walk is linear in its size.
 */
export function bodyFields(
  value: unknown,
  schema: JsonSchema,
  defs: Readonly<Record<string, unknown>>,
  dropAtRoot: readonly string[] = [],
): BodyFields {
  const unknown: UnknownField[] = [];
  const walk = (item: unknown, schemas: JsonSchema[], path: string, root: boolean): unknown => {
    if (Array.isArray(item)) {
      const items = schemas.flatMap((s) => resolved(s, defs)).flatMap((s) => (isRecord(s.items) ? [s.items] : []));
      return items.length === 0 ? item : item.map((entry, index) => walk(entry, items, `${path}[${index}]`, false));
    }
    if (!isRecord(item)) return item;
    const shape = shapeOf(schemas, defs);
    if (shape.properties.size === 0 && shape.extra.length === 0) return item;
    const kept: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(item)) {
      if (root && dropAtRoot.includes(name)) continue;
      const known = shape.properties.get(name);
      if (known) {
        if (known.some((s) => resolved(s, defs).some((r) => r.readOnly === true))) continue;
        const sent = walk(entry, known, `${path}.${name}`, false);
        // An object that held only read-only fields is left out whole: sent empty, it could clear what the API holds.
        if (!emptied(entry, sent)) setOwn(kept, name, sent);
        continue;
      }
      if (shape.extra.length > 0) setOwn(kept, name, walk(entry, shape.extra, `${path}.${name}`, false));
      else {
        if (!shape.openByDesign && unknown.length < MAX_REPORTED) {
          const names = [...shape.properties.keys()];
          const meant = closest(name, names);
          unknown.push({ path: `${path}.${name}`, name, known: names, ...(meant !== undefined ? { meant } : {}) });
        }
        setOwn(kept, name, entry);
      }
    }
    return kept;
  };
  return { sent: walk(value, [schema], "body", true), unknown };
}

/** A schema with its `$ref` followed (a chain of at most 32), and the branches of its compositions beside it. */
function resolved(schema: JsonSchema, defs: Readonly<Record<string, unknown>>, depth = 0): JsonSchema[] {
  if (depth > 32) return [];
  const ref = typeof schema.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  const target = ref !== undefined && Object.hasOwn(defs, decodeURIComponent(ref)) ? defs[decodeURIComponent(ref)] : undefined;
  const own = isRecord(target) ? resolved(target, defs, depth + 1) : [schema];
  const branches = ["allOf", "anyOf", "oneOf"].flatMap((keyword) => {
    const list = schema[keyword];
    return Array.isArray(list) ? list.filter(isRecord).flatMap((branch) => resolved(branch, defs, depth + 1)) : [];
  });
  return [...own, ...branches];
}

/** The properties every branch of these schemas names, and whether the object takes other names by design. */
function shapeOf(schemas: JsonSchema[], defs: Readonly<Record<string, unknown>>): ObjectShape {
  const shape: ObjectShape = { properties: new Map(), openByDesign: false, extra: [] };
  for (const schema of schemas.flatMap((s) => resolved(s, defs))) {
    if (isRecord(schema.properties))
      for (const [name, child] of Object.entries(schema.properties))
        if (isRecord(child)) shape.properties.set(name, [...(shape.properties.get(name) ?? []), child]);
    const additional = schema.additionalProperties;
    if (isRecord(additional) && Object.keys(additional).length > 0) shape.extra.push(additional);
    else if (additional === true || (isRecord(additional) && Object.keys(additional).length === 0)) shape.openByDesign = true;
    if (isRecord(schema.patternProperties)) shape.openByDesign = true;
  }
  return shape;
}

/** Whether a non-empty object came out of the walk empty (all its fields read-only). */
function emptied(before: unknown, after: unknown): boolean {
  return isRecord(before) && isRecord(after) && Object.keys(before).length > 0 && Object.keys(after).length === 0;
}

/** One line naming the fields a closed body refused, or hinting at the likely typos an open one forwarded. */
export function describeUnknown(fields: readonly UnknownField[], refused: boolean): string {
  const each = fields.map((field) => {
    const takes =
      field.meant !== undefined
        ? `did you mean "${field.meant}"?`
        : `it takes ${field.known.slice(0, 8).join(", ")}${field.known.length > 8 ? ", …" : ""}`;
    return `${field.path} (${takes})`;
  });
  return refused
    ? `unknown ${fields.length === 1 ? "property" : "properties"} ${each.join("; ")}: this server's operator closed this body to names the document gives`
    : `note: the document names no ${fields.length === 1 ? "field" : "fields"} ${each.join("; ")}; sent as given`;
}
