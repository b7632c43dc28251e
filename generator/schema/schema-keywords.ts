import { setOwn } from "oapi-mcp-gen-runtime";
import { isJsonObject, type JsonObject } from "../../openapi/document/index.js";

/** The formats JSON Schema itself defines (draft 2020-12, a superset of draft-07's); validators know these. */
const JSON_SCHEMA_FORMATS = new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uuid",
  "uri-template",
  "json-pointer",
  "relative-json-pointer",
  "regex",
]);

/**
 * Keeps a JSON Schema format; any other (`int64`, `byte`, `field-mask`…) leaves the schema, where validators would
 * warn about it or refuse it, and stays as a hint at the end of the description.
 */
export function moveFormatToHint(schema: JsonObject): void {
  const format = schema.format;
  if (typeof format === "string" && JSON_SCHEMA_FORMATS.has(format)) return;
  delete schema.format;
  if (typeof format !== "string" || format.trim() === "") return;
  const hint = `(format: ${format.trim().slice(0, 60)})`;
  schema.description = typeof schema.description === "string" && schema.description !== "" ? `${schema.description} ${hint}` : hint;
}

/**
 * Says what strict validators want said, without changing what validates: object keywords with no `type` (and no
 * `anyOf`/`oneOf` that could admit other types) get `type: "object"`, and a `required` name the same schema does not
 * define gets an empty property. (Ajv's strictTypes and strictRequired refuse both.)
 */
const OBJECT_KEYWORDS = ["properties", "additionalProperties", "patternProperties", "required", "minProperties", "maxProperties"];

export function declareObjectKeywords(schema: JsonObject): void {
  const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (types !== undefined && !types.includes("object")) {
    // Object keywords under a type that is never an object never apply: dropping them changes nothing.
    for (const keyword of OBJECT_KEYWORDS) delete schema[keyword];
    return;
  }
  const objectKeywords =
    schema.properties !== undefined || schema.additionalProperties !== undefined || schema.patternProperties !== undefined;
  const branches = [...(Array.isArray(schema.anyOf) ? schema.anyOf : []), ...(Array.isArray(schema.oneOf) ? schema.oneOf : [])];
  const onlyObjects = branches.every(
    (branch) => isJsonObject(branch) && (branch.type === undefined || branch.type === "object") && branch.$ref === undefined,
  );
  if (types === undefined && onlyObjects && (objectKeywords || (branches.length > 0 && Array.isArray(schema.required)))) {
    schema.type = "object";
  }
  if (!Array.isArray(schema.required)) return;
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const missing = schema.required.filter((name): name is string => typeof name === "string" && !Object.hasOwn(properties, name));
  if (missing.length === 0) return;
  for (const name of missing) setOwn(properties, name, {});
  schema.properties = properties;
}

/** Literal values (`default`, `examples`, `enum`, `const`) may nest this deep: deeper ones would overflow the formatter. */
export const MAX_VALUE_DEPTH = 32;

/** How deeply a JSON value nests, counted up to `limit + 1` (iteratively: the value may be very deep). */
function valueDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, depth] = entry;
    if (typeof node !== "object" || node === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Drops a `default` or `examples` value nested deeper than MAX_VALUE_DEPTH (with a warning: they only advise);
 * an `enum` or `const` that deep changes what is valid, so it is a problem to fix in the document.
 */
export function fitValueDepth(schema: JsonObject, warn: (message: string) => void): string | undefined {
  for (const keyword of ["default", "examples"]) {
    if (schema[keyword] !== undefined && valueDepth(schema[keyword], MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH) {
      warn(`dropped ${keyword} nested deeper than ${MAX_VALUE_DEPTH} levels`);
      delete schema[keyword];
    }
  }
  for (const keyword of ["enum", "const"]) {
    if (schema[keyword] !== undefined && valueDepth(schema[keyword], MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH) {
      return `${keyword} value nested deeper than ${MAX_VALUE_DEPTH} levels`;
    }
  }
  return undefined;
}
