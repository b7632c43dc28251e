import type { ParameterBinding } from "../base/tool.js";

/**
 * Parameter serialisation by OpenAPI `style` and `explode`, for every location, as the specification's style table
 * shows it: delimiters stay literal, values are percent-encoded (RFC 3986), `allowReserved` keeps reserved characters.
 * @see https://spec.openapis.org/oas/v3.1.1#style-examples
 */

/** The style a location uses when the document names none. */
export function defaultStyle(location: ParameterBinding["in"]): string {
  return location === "query" || location === "cookie" ? "form" : "simple";
}

/** A binding's effective style and explode (explode defaults to true for `form` only; `deepObject` always explodes). */
export function styleOf(binding: ParameterBinding): { style: string; explode: boolean } {
  const style = binding.style ?? defaultStyle(binding.in);
  return { style, explode: style === "deepObject" ? true : (binding.explode ?? style === "form") };
}

/** RFC 3986 reserved characters, which `allowReserved` leaves unencoded (`#` excepted: it would end the query). */
const RESERVED = /%(3A|2F|3F|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi;

/** Percent-encodes one value; with `allowReserved`, reserved characters stay as they are. */
export function encodeValue(text: string, allowReserved = false): string {
  const encoded = encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return allowReserved ? encoded.replace(RESERVED, (reserved) => decodeURIComponent(reserved)) : encoded;
}

/** A primitive as text; a nested object or array (which the style table does not define) as JSON. */
export function scalarText(value: unknown): string {
  return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** What a value is, for the style table: a primitive, an array of items, or an object's [key, value] pairs. */
type Shape = { kind: "primitive"; text: string } | { kind: "array"; items: string[] } | { kind: "object"; entries: [string, string][] };

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return { kind: "array", items: value.filter((item) => item !== undefined && item !== null).map(scalarText) };
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined && item !== null);
    return { kind: "object", entries: entries.map(([key, item]) => [key, scalarText(item)]) };
  }
  return { kind: "primitive", text: scalarText(value) };
}

/** A path value (`simple`, `label` or `matrix`), encoded, ready to replace its `{placeholder}`. */
export function pathValue(binding: ParameterBinding, value: unknown, encode: (text: string) => string): string {
  const { style, explode } = styleOf(binding);
  const shape = shapeOf(value);
  const name = encode(binding.name);
  if (style === "label") {
    if (shape.kind === "primitive") return `.${encode(shape.text)}`;
    const parts = shape.kind === "array" ? shape.items.map(encode) : pairs(shape.entries, explode, "=", encode);
    return `.${parts.join(explode ? "." : ",")}`;
  }
  if (style === "matrix") {
    if (shape.kind === "primitive") return `;${name}=${encode(shape.text)}`;
    if (shape.kind === "array")
      return explode ? shape.items.map((item) => `;${name}=${encode(item)}`).join("") : `;${name}=${shape.items.map(encode).join(",")}`;
    return explode
      ? shape.entries.map(([key, item]) => `;${encode(key)}=${encode(item)}`).join("")
      : `;${name}=${pairs(shape.entries, false, ",", encode).join(",")}`;
  }
  if (shape.kind === "primitive") return encode(shape.text);
  if (shape.kind === "array") return shape.items.map(encode).join(",");
  return pairs(shape.entries, explode, "=", encode).join(",");
}

/** How one query parameter or form field is serialised by style (the Parameter Object's and Encoding Object's fields). */
export interface StyleSpec {
  readonly style: string;
  readonly explode: boolean;
  readonly allowReserved?: boolean;
}

/** Query pairs (`name=value`, encoded) for `form`, `spaceDelimited`, `pipeDelimited` and `deepObject`. */
export function queryPairs(binding: ParameterBinding, value: unknown): string[] {
  const spec = { ...styleOf(binding), allowReserved: binding.allowReserved === true };
  return styledPairs(binding.name, value, spec, percentEncoded(spec)).map(([name, text]) => `${name}=${text}`);
}

/** Encoders of a pair's name and value: what is not literal is percent-encoded (RFC 3986), or nothing is (multipart). */
export interface PairEncoding {
  readonly name: (text: string) => string;
  readonly value: (text: string) => string;
  /** The delimiters between a non-exploded array's items, by style. */
  readonly delimiter: (style: string) => string;
  /** `[key]` of a deepObject name. */
  readonly bracket: (key: string) => string;
}

/** Percent-encoding for query strings and `application/x-www-form-urlencoded` bodies. */
export function percentEncoded(spec: Pick<StyleSpec, "allowReserved">): PairEncoding {
  return {
    name: (text) => encodeValue(text),
    value: (text) => encodeValue(text, spec.allowReserved === true),
    delimiter: (style) => (style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "%7C" : ","),
    bracket: (key) => `%5B${encodeValue(key)}%5D`,
  };
}

/** No encoding: the pairs of a `multipart/form-data` body, each sent as its own part. */
export const RAW_PAIRS: PairEncoding = {
  name: (text) => text,
  value: (text) => text,
  delimiter: (style) => (style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ","),
  bracket: (key) => `[${key}]`,
};

/**
 * The `[name, value]` pairs of one query parameter or form field by its style, as the specification's style table
 * shows them. `deepObject` nests brackets for nested objects and indexes arrays (`a[0][b]=1`, `tags[0]=x`), as Rails,
 * Stripe and the `qs` library read them; the table itself defines only one level of primitives.
 */
export function styledPairs(name: string, value: unknown, spec: StyleSpec, encoding: PairEncoding): [string, string][] {
  if (spec.style === "deepObject" && typeof value === "object" && value !== null) {
    return deepPairs(value, encoding.name(name), encoding);
  }
  const encodedName = encoding.name(name);
  const shape = shapeOf(value);
  if (shape.kind === "primitive") return [[encodedName, encoding.value(shape.text)]];
  const delimiter = encoding.delimiter(spec.style);
  if (shape.kind === "array") {
    if (spec.explode) return shape.items.map((item) => [encodedName, encoding.value(item)]);
    return [[encodedName, shape.items.map(encoding.value).join(delimiter)]];
  }
  if (spec.explode) return shape.entries.map(([key, item]) => [encoding.name(key), encoding.value(item)]);
  return [[encodedName, shape.entries.flatMap(([key, item]) => [encoding.value(key), encoding.value(item)]).join(delimiter)]];
}

/** Every primitive leaf of a nested value as `prefix[key][0]…=leaf`; nulls are left out. */
function deepPairs(value: unknown, prefix: string, encoding: PairEncoding): [string, string][] {
  if (value === undefined || value === null) return [];
  if (typeof value !== "object") return [[prefix, encoding.value(String(value))]];
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  return entries.flatMap(([key, item]) => deepPairs(item, `${prefix}${encoding.bracket(key)}`, encoding));
}

/** A header value (`simple`): no percent-encoding. */
export function headerText(binding: ParameterBinding, value: unknown): string {
  const { explode } = styleOf(binding);
  const shape = shapeOf(value);
  if (shape.kind === "primitive") return shape.text;
  if (shape.kind === "array") return shape.items.join(",");
  return pairs(shape.entries, explode, "=", (text) => text).join(",");
}

/** Cookie pairs (`form`): exploded arrays repeat the cookie, exploded objects send one cookie a property. */
export function cookiePairs(binding: ParameterBinding, value: unknown): string[] {
  const { explode } = styleOf(binding);
  const name = encodeValue(binding.name);
  const shape = shapeOf(value);
  if (shape.kind === "primitive") return [`${name}=${encodeValue(shape.text)}`];
  if (shape.kind === "array")
    return explode
      ? shape.items.map((item) => `${name}=${encodeValue(item)}`)
      : [`${name}=${shape.items.map((item) => encodeValue(item)).join(",")}`];
  if (explode) return shape.entries.map(([key, item]) => `${encodeValue(key)}=${encodeValue(item)}`);
  return [`${name}=${pairs(shape.entries, false, ",", (text) => encodeValue(text)).join(",")}`];
}

/** Object entries as `key=value` (exploded) or `key,value` items. */
function pairs(entries: [string, string][], explode: boolean, joiner: string, encode: (text: string) => string): string[] {
  return explode
    ? entries.map(([key, item]) => `${encode(key)}${joiner}${encode(item)}`)
    : entries.flatMap(([key, item]) => [encode(key), encode(item)]);
}
