import { jsonText } from "./json-text.js";
import { isRecord, setOwn } from "./own-property.js";
import { SUBSCHEMA, SUBSCHEMA_LISTS, SUBSCHEMA_MAPS } from "./schema-walk.js";
import { mergeTwins, withoutRootNull } from "./shared-definitions.js";
import type { JsonSchema } from "./tool.js";

/** Value constraints a reader of a result does not need, and that real APIs break without breaking their clients. */
const VALUE_CONSTRAINTS = [
  "required",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
];

/** Sample values: they illustrate a result a client receives anyway, and were a fifth of GitHub's tools/list. */
const SAMPLES = ["examples", "example"];

/** Annotations that say nothing about a result: every value in one was read. */
const REQUEST_ONLY = ["readOnly"];

/** What the tolerant form leaves out, looked up once per keyword of every node. */
const LEFT_OUT = new Set([...VALUE_CONSTRAINTS, ...SAMPLES, ...REQUEST_ONLY]);

const COMBINATORS = ["$ref", "allOf", "anyOf", "oneOf"];
/** Single-subschema keywords whose subschema describes a value (an item or an extra property). */
const VALUE_SUBSCHEMA = new Set(["items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties"]);

/**
 * The output schema clients are shown under `output.validate: warn`: the document's shape, where any value may be
 * null, no property is required, no closed object refuses extra properties, no value constraint applies and no
 * sample values are listed. Real
 * APIs return nulls their documents omit and leave out fields a `fields=` selection dropped; those results still
 * conform. The root stays an object (MCP requires it). Definitions that then say the same thing are listed once.
 */
export function tolerantSchema(schema: JsonSchema, definitions: TolerantDefinitions = new Map()): JsonSchema {
  const { $defs, ...root } = schema;
  const relaxed = relaxSchema(root, false);
  if (!isRecord($defs)) return relaxed;
  const defs: JsonSchema = {};
  for (const [key, def] of Object.entries($defs)) setOwn(defs, key, isRecord(def) ? tolerantDefinition(def, definitions) : def);
  return mergeTwins(setOwn(relaxed, "$defs", defs));
}

/** Tolerant forms of `$defs` entries by their JSON: the tools of one list repeat the same definitions. */
export type TolerantDefinitions = Map<string, JsonSchema>;

/** A definition's tolerant form, without a root `null` (every use admits null), made once per distinct definition. */
function tolerantDefinition(def: JsonSchema, definitions: TolerantDefinitions): JsonSchema {
  const text = jsonText(def);
  let tolerant = definitions.get(text);
  if (tolerant === undefined) {
    tolerant = withoutRootNull(relaxSchema(def, false));
    definitions.set(text, tolerant);
  }
  return tolerant;
}

/** The relaxed form of a value that may be a schema node (anything else stays as it is). */
function relax(node: unknown, isValue = true): unknown {
  return isRecord(node) ? relaxSchema(node, isValue) : node;
}

/**
 * The relaxed form of a schema node. Only a node that describes a value (a property, an item, a map entry) admits
 * null; the root, `$defs` entries and combinator branches do not (null is admitted where they are used), so a branch
 * never contradicts the type of its context.
 */
function relaxSchema(node: JsonSchema, isValue: boolean): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (LEFT_OUT.has(key)) continue;
    if (key === "additionalProperties" && value === false) continue;
    if (key === "not" || key === "if" || key === "then" || key === "else" || key === "const") setOwn(out, key, value);
    else if (SUBSCHEMA.includes(key)) setOwn(out, key, relax(value, VALUE_SUBSCHEMA.has(key)));
    else if (SUBSCHEMA_MAPS.includes(key) && typeof value === "object" && value !== null) {
      const values = key === "properties" || key === "patternProperties";
      setOwn(out, key, Object.fromEntries(Object.entries(value).map(([name, child]) => [name, relax(child, values)])));
    } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value))
      setOwn(
        out,
        key,
        value.map((child) => relax(child, key === "prefixItems")),
      );
    else setOwn(out, key, value);
  }
  if (!isValue) return out;
  if (COMBINATORS.some((keyword) => keyword in out)) return { anyOf: [out, { type: "null" }] };
  if (typeof out.type === "string" && out.type !== "null") out.type = [out.type, "null"];
  else if (Array.isArray(out.type) && !out.type.includes("null")) out.type = [...out.type, "null"];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  return out;
}
