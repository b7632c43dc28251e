import { isJsonObject, type JsonObject, type JsonValue } from "../document/index.js";

/** A schema position of the document, read once: an object, `true`/`false`, or `null` for anything else. */
export type Schema = SchemaObject | boolean | null;

/** Keywords whose meaning is the same in JSON Schema draft-07 and 2020-12: kept as written, in document order. */
export const PORTABLE_KEYWORDS: ReadonlySet<string> = new Set([
  "title",
  "description",
  "default",
  "format",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "minimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "readOnly",
  "writeOnly",
  "examples",
  "contentEncoding",
  "contentMediaType",
]);

/** An OpenAPI discriminator: the property naming the variant, and variant names mapped to references. */
export interface Discriminator {
  readonly propertyName?: string;
  readonly mapping: ReadonlyMap<string, string>;
}

/** One schema object with its keywords typed; references stay references (the schema catalog resolves them). */
export interface SchemaObject {
  readonly ref?: string;
  /** True when `$ref` is the only keyword. */
  readonly refOnly: boolean;
  readonly dynamicRef?: string;
  readonly dynamicAnchor?: string;
  /** The portable keywords as written, in document order. */
  readonly keywords: JsonObject;
  readonly example?: JsonValue;
  readonly type?: string | string[];
  readonly nullable: boolean;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  readonly format?: string;
  readonly contentMediaType?: string;
  readonly hasContentEncoding: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number | boolean;
  readonly exclusiveMaximum?: number | boolean;
  readonly properties?: ReadonlyMap<string, Schema>;
  /** The string entries of `required`, when it is a list. */
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | Schema;
  readonly items?: Schema;
  readonly allOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly oneOf?: readonly Schema[];
  readonly not?: Schema;
  readonly defs?: ReadonlyMap<string, Schema>;
  readonly discriminator?: Discriminator;
  /** The object as the document wrote it (for views that show it). */
  readonly source: JsonObject;
}

const read = new WeakMap<JsonObject, SchemaObject>();

/** Reads a schema position; each object of the document is read once. */
export function readSchema(node: JsonValue | undefined): Schema {
  if (node === undefined || node === true) return true;
  if (node === false) return false;
  if (!isJsonObject(node)) return null;
  let schema = read.get(node);
  if (schema === undefined) {
    schema = readObject(node);
    read.set(node, schema);
  }
  return schema;
}

/** A schema object without one of its own keywords: its `$ref`, or its `$dynamicAnchor`. */
export function withoutKeyword(schema: SchemaObject, keyword: "$ref" | "$dynamicAnchor"): SchemaObject {
  const { [keyword]: _, ...rest } = schema.source;
  return readObject(rest);
}

/**
 * Whether a schema says `type: "null"` beside `oneOf` or `anyOf` (Vercel's `EdgeConfigItemValue`): read literally only
 * null passes, which no alternative admits, so it is read as the document means it: null or one of the alternatives.
 */
export function isNullBesideAlternatives(node: JsonObject): boolean {
  const saysNull = node.type === "null" || (Array.isArray(node.type) && node.type.length === 1 && node.type[0] === "null");
  const alternatives = (list: JsonValue | undefined) => Array.isArray(list) && list.length > 0;
  return saysNull && (alternatives(node.oneOf) || alternatives(node.anyOf));
}

function readObject(node: JsonObject): SchemaObject {
  const nullOrAlternatives = isNullBesideAlternatives(node);
  const keywords: JsonObject = {};
  for (const [key, value] of Object.entries(node)) if (PORTABLE_KEYWORDS.has(key)) keywords[key] = value;
  const string = (value: JsonValue | undefined) => (typeof value === "string" ? value : undefined);
  const number = (value: JsonValue | undefined) => (typeof value === "number" ? value : undefined);
  const bound = (value: JsonValue | undefined) => (typeof value === "number" || typeof value === "boolean" ? value : undefined);
  const list = (value: JsonValue | undefined) => (Array.isArray(value) ? value.map(readSchema) : undefined);
  const ref = string(node.$ref);
  const fields: { -readonly [K in keyof SchemaObject]: SchemaObject[K] } = {
    refOnly: ref !== undefined && Object.keys(node).length === 1,
    keywords,
    nullable: node.nullable === true || nullOrAlternatives,
    readOnly: node.readOnly === true,
    writeOnly: node.writeOnly === true,
    hasContentEncoding: node.contentEncoding !== undefined,
    source: node,
  };
  if (ref !== undefined) fields.ref = ref;
  const set = <K extends keyof SchemaObject>(key: K, value: SchemaObject[K] | undefined) => {
    if (value !== undefined) fields[key] = value;
  };
  set("dynamicRef", string(node.$dynamicRef));
  set("dynamicAnchor", string(node.$dynamicAnchor));
  set("example", node.example);
  set("type", nullOrAlternatives ? undefined : typeOf(node.type));
  set("format", string(node.format));
  set("contentMediaType", string(node.contentMediaType));
  set("minimum", number(node.minimum));
  set("maximum", number(node.maximum));
  set("exclusiveMinimum", bound(node.exclusiveMinimum));
  set("exclusiveMaximum", bound(node.exclusiveMaximum));
  set("properties", isJsonObject(node.properties) ? schemaMap(node.properties) : undefined);
  set("required", Array.isArray(node.required) ? node.required.filter((name) => typeof name === "string") : undefined);
  set(
    "additionalProperties",
    typeof node.additionalProperties === "boolean" || node.additionalProperties === undefined
      ? node.additionalProperties
      : readSchema(node.additionalProperties),
  );
  set("items", node.items !== undefined && !Array.isArray(node.items) ? readSchema(node.items) : undefined);
  set("allOf", list(node.allOf));
  set("anyOf", list(node.anyOf));
  set("oneOf", list(node.oneOf));
  set("not", node.not !== undefined ? readSchema(node.not) : undefined);
  set("defs", isJsonObject(node.$defs) ? schemaMap(node.$defs) : undefined);
  set("discriminator", discriminatorOf(node.discriminator));
  return fields;
}

function typeOf(type: JsonValue | undefined): string | string[] | undefined {
  if (typeof type === "string") return type;
  if (Array.isArray(type) && type.every((item) => typeof item === "string")) return [...new Set(type)];
  return undefined;
}

function schemaMap(node: JsonObject): Map<string, Schema> {
  return new Map(Object.entries(node).map(([name, value]) => [name, readSchema(value)]));
}

function discriminatorOf(node: JsonValue | undefined): Discriminator | undefined {
  if (!isJsonObject(node)) return undefined;
  const mapping = new Map<string, string>();
  if (isJsonObject(node.mapping))
    for (const [name, target] of Object.entries(node.mapping)) if (typeof target === "string") mapping.set(name, target);
  return { ...(typeof node.propertyName === "string" ? { propertyName: node.propertyName } : {}), mapping };
}

/** True when a value is written as a reference object (`{"$ref": "…"}`): in an example, that is misuse, not data. */
export function isReferenceObject(value: JsonValue): boolean {
  return isJsonObject(value) && typeof value.$ref === "string";
}
