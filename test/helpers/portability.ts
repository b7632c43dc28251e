/**
 * What the MCP Inspector's `--strict` (2.12.0) reports of a tool schema, checked the same way: a `type` list, a
 * boolean where a schema is expected, a schema that constrains nothing, a `$ref` outside the document.
 */
const CONSTRAINING = new Set(
  (
    "type enum const multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern format contentMediaType " +
    "contentEncoding contentSchema maxItems minItems uniqueItems maxContains minContains maxProperties minProperties required " +
    "dependentRequired allOf anyOf oneOf not items prefixItems contains additionalItems unevaluatedItems properties patternProperties " +
    "additionalProperties unevaluatedProperties propertyNames dependentSchemas dependencies $ref $dynamicRef $recursiveRef"
  ).split(" "),
);
const BOOLEAN_VALUED = new Set(["additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"]);
const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const SINGLE = [
  "items",
  "contains",
  "not",
  "propertyNames",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "additionalItems",
  "unevaluatedItems",
  "contentSchema",
];

/** The findings, as `path: rule`. */
export function portabilityFindings(schema: unknown): string[] {
  const findings: string[] = [];
  const walk = (node: unknown, path: string, keyword: string | undefined, depth: number) => {
    if (depth > 64) return;
    if (typeof node === "boolean") {
      if (keyword === undefined || !BOOLEAN_VALUED.has(keyword)) findings.push(`${path}: boolean-schema`);
      return;
    }
    if (typeof node !== "object" || node === null || Array.isArray(node)) return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record.type)) findings.push(`${path}: type-union`);
    if (typeof record.$ref === "string" && !record.$ref.startsWith("#")) findings.push(`${path}: remote-ref`);
    const constrains =
      Object.keys(record).some((key) => CONSTRAINING.has(key)) || ("if" in record && ("then" in record || "else" in record));
    if (!constrains && keyword !== "not") findings.push(`${path}: untyped-schema`);
    for (const key of MAPS) {
      const map = record[key];
      if (typeof map === "object" && map !== null && !Array.isArray(map))
        for (const [name, child] of Object.entries(map)) walk(child, `${path}.${key}.${name}`, key, depth + 1);
    }
    for (const key of LISTS) {
      const list = record[key];
      if (Array.isArray(list)) for (const [index, child] of list.entries()) walk(child, `${path}.${key}[${index}]`, key, depth + 1);
    }
    for (const key of SINGLE) if (key in record) walk(record[key], `${path}.${key}`, key, depth + 1);
  };
  walk(schema, "", undefined, 0);
  return findings;
}
