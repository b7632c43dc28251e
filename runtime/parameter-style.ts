import type { ParameterBinding } from "./tool.js";

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

/** Query pairs (`name=value`, encoded) for `form`, `spaceDelimited`, `pipeDelimited` and `deepObject`. */
export function queryPairs(binding: ParameterBinding, value: unknown): string[] {
  const { style, explode } = styleOf(binding);
  const encode = (text: string) => encodeValue(text, binding.allowReserved === true);
  const name = encodeValue(binding.name);
  if (style === "deepObject" && typeof value === "object" && value !== null && !Array.isArray(value)) {
    // Arrays inside a deep object repeat their key (`q[size]=1&q[size]=2`), the common reading where the table is silent.
    return Object.entries(value).flatMap(([key, item]) =>
      (Array.isArray(item) ? item : [item])
        .filter((each) => each !== undefined && each !== null)
        .map((each) => `${name}%5B${encodeValue(key)}%5D=${encode(scalarText(each))}`),
    );
  }
  const shape = shapeOf(value);
  if (shape.kind === "primitive") return [`${name}=${encode(shape.text)}`];
  const delimiter = style === "spaceDelimited" ? "%20" : style === "pipeDelimited" ? "%7C" : ",";
  if (shape.kind === "array") {
    if (explode) return shape.items.map((item) => `${name}=${encode(item)}`);
    return [`${name}=${shape.items.map(encode).join(delimiter)}`];
  }
  if (explode) return shape.entries.map(([key, item]) => `${encodeValue(key)}=${encode(item)}`);
  return [`${name}=${shape.entries.flatMap(([key, item]) => [encode(key), encode(item)]).join(delimiter)}`];
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
