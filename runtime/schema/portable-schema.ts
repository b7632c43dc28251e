import { isRecord, setOwn } from "../base/own-property.js";
import type { JsonSchema } from "../base/tool.js";
import { mapSubschemas, refTo } from "./schema-walk.js";

const NUMBER_KEYWORDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"];

/** Keywords that constrain values of one JSON type only, by that type. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ["minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType", "contentSchema"],
  number: NUMBER_KEYWORDS,
  integer: NUMBER_KEYWORDS,
  object: [
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "required",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
  ],
  array: ["items", "prefixItems", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems", "unevaluatedItems"],
};

/** Keywords that apply subschemas to a value whatever its type. */
const APPLICATORS = ["$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else"];

/** Keywords that say something about a value (a node without any admits every value). */
const CONSTRAINING = new Set([
  "type",
  "enum",
  "const",
  ...Object.values(TYPE_KEYWORDS).flat(),
  "$ref",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "additionalItems",
  "dependencies",
]);

/** What stands for "any JSON value": each type spelled as its own branch. */
const ANY_VALUE: JsonSchema = {
  description: "Any JSON value.",
  anyOf: ["object", "array", "string", "number", "boolean", "null"].map((type) => ({ type })),
};

/**
 * A schema as every client reads it the same way (what the MCP Inspector's `--strict` asks): a `type` list becomes
 * `anyOf` branches of one type each, carrying the keywords of their type (so strict Ajv finds each keyword beside its
 * type), and a node that constrains nothing (`{}`, a bare description) names `$defs/any`, which spells out "any JSON
 * value". It admits the same values (a nullable value's `anyOf`/`$ref`… apply to its non-null values only, as
 * documents mean them).
 */
export function portableSchema(schema: JsonSchema): JsonSchema {
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const anyKey = freeKey("any", defs);
  let anyUsed = false;
  const visit = (node: JsonSchema, underNot: boolean): JsonSchema => {
    const mapped = mapChildren(node, visit);
    const split = splitTypes(mapped);
    if (underNot || constrains(split)) return split;
    anyUsed = true;
    return { ...split, $ref: refTo(anyKey) };
  };
  const { $defs: _, ...root } = schema;
  const out = visit(root, false);
  if (!isRecord(schema.$defs) && !anyUsed) return out;
  const listedDefs: JsonSchema = {};
  for (const [key, def] of Object.entries(defs)) setOwn(listedDefs, key, isRecord(def) ? visit(def, false) : def);
  if (anyUsed) setOwn(listedDefs, anyKey, ANY_VALUE);
  return setOwn(out, "$defs", listedDefs);
}

/** The node with each subschema made portable (the direct child of `not` may constrain nothing: `not: {}` is "never"). */
function mapChildren(node: JsonSchema, visit: (child: JsonSchema, underNot: boolean) => JsonSchema): JsonSchema {
  const { not, ...rest } = node;
  const out = mapSubschemas(rest, (child) => visit(child, false));
  if (not !== undefined) setOwn(out, "not", isRecord(not) ? visit(not, true) : not);
  return out;
}

/** `{type: [a, b], …}` as `{anyOf: [{type: a, …a's keywords}, {type: b, …}]}`; a one-type list becomes that type. */
function splitTypes(node: JsonSchema): JsonSchema {
  const { type } = node;
  if (!Array.isArray(type)) return node;
  const types = [...new Set(type.filter((entry): entry is string => typeof entry === "string"))];
  if (types.length === 0 || types.length !== type.length) return node;
  if (types.length === 1) return { ...node, type: types[0] };
  const shared: JsonSchema = {};
  const branches = types.map((each): JsonSchema => ({ type: each }));
  // A nullable value (one type and null): its applicators go with its type, where their keywords find it (strict
  // Ajv), and null stays admitted by its own branch.
  const nullable = types.length === 2 && types.includes("null") ? branches.find((branch) => branch.type !== "null") : undefined;
  for (const [key, value] of Object.entries(node)) {
    if (key === "type") continue;
    if (Object.values(TYPE_KEYWORDS).some((keywords) => keywords.includes(key))) {
      for (const branch of branches) if (TYPE_KEYWORDS[String(branch.type)]?.includes(key)) setOwn(branch, key, value);
    } else if (nullable !== undefined && APPLICATORS.includes(key)) setOwn(nullable, key, value);
    else setOwn(shared, key, value);
  }
  // Otherwise applicators stay beside the branches (they held for every type); a node's own `anyOf` keeps its place in `allOf`.
  if (shared.anyOf === undefined) return setOwn(shared, "anyOf", branches);
  const allOf = Array.isArray(shared.allOf) ? shared.allOf : [];
  return setOwn(shared, "allOf", [...allOf, { anyOf: branches }]);
}

/** Whether a node constrains its value (`if` does only with `then` or `else`). */
function constrains(node: JsonSchema): boolean {
  return Object.keys(node).some((key) => CONSTRAINING.has(key)) || ("if" in node && ("then" in node || "else" in node));
}

/** `base`, or `base_2`, `base_3`…: the first key `defs` does not hold. */
export function freeKey(base: string, defs: Record<string, unknown>): string {
  if (!Object.hasOwn(defs, base)) return base;
  for (let n = 2; ; n++) if (!Object.hasOwn(defs, `${base}_${n}`)) return `${base}_${n}`;
}
