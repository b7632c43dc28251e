import type { ErrorObject } from "ajv";
import { jsonText } from "oapi-mcp-gen-runtime";
import { isJsonObject } from "../../openapi/document/index.js";
import type { ToolSchemas } from "./json-schema.js";
import { mayHoldLongEnum, withShortEnums } from "./long-enums.js";
import { metaSchemaErrors as draft2020Errors } from "./meta-2020-12.js";
import { metaSchemaErrors as draft07Errors } from "./meta-draft-07.js";
import { defsKey, schemaRefs } from "./schema-refs.js";

/** Checks a schema (`text`: its JSON) against a dialect's meta-schema: the errors found, or undefined when it is valid. */
type MetaCheck = (schema: unknown, text: string) => ErrorObject[] | undefined;

/**
 * Strict clients validate with either dialect, so every tool schema must satisfy both meta-schemas: checked by their
 * validators compiled ahead of time (scripts/validators.ts). A tool schema carries no `$schema` (the builder leaves it
 * out), so each dialect's own meta-schema is the one, as a client validating with that dialect reads it.
 */
const dialects: { dialect: string; check: MetaCheck }[] = [
  // Draft-07 wants an enum's items unique, which Ajv checks pair by pair: a long enum is shown as its stand-in.
  { dialect: "draft-07", check: (schema, text) => draft07Errors(mayHoldLongEnum(text) ? withShortEnums(schema) : schema) },
  { dialect: "2020-12", check: draft2020Errors },
];

/** Errors as one line, as Ajv's `errorsText` writes them. */
function errorsText(errors: readonly ErrorObject[], separator: string, dataVar = "data"): string {
  if (errors.length === 0) return "No errors";
  return errors.map((error) => `${dataVar}${error.instancePath} ${error.message}`).join(separator);
}

/**
 * What a meta-schema check found for each schema already checked, by dialect and JSON: tools share most definitions,
 * and tools that return the same shape have the same output root.
 */
export type SchemaChecks = Map<string, ErrorObject[] | undefined>;

/**
 * Problems that keep a tool's schemas from being valid MCP tool schemas; empty when all is well. Checks each
 * meta-schema and that every `$ref` is a `#/$defs/…` entry that exists: what compiling would find, at a fraction
 * of the cost (compiling GitHub's 2,446 schemas takes about 20 s). The root is checked against both dialects and each
 * `$defs` entry once per distinct definition against 2020-12 (draft-07 does not know `$defs`, so never reads them);
 * that is what checking the whole schema finds.
 */
export function toolSchemaProblems(tool: ToolSchemas, checked: SchemaChecks = new Map()): string[] {
  const problems: string[] = [];
  const where = tool.operationId ?? tool.name;
  for (const [kind, schema] of [
    ["input", tool.inputSchema],
    ["output", tool.outputSchema],
  ] as const) {
    if (schema.type !== "object") problems.push(`${where}: the ${kind} schema is not rooted in type "object"`);
    for (const keyword of ["oneOf", "anyOf", "allOf"]) {
      if (kind === "input" && schema[keyword] !== undefined) problems.push(`${where}: the input schema has a top-level ${keyword}`);
    }
    const { $defs, ...root } = schema;
    const defs = isJsonObject($defs) ? $defs : {};
    const rootText = JSON.stringify(root);
    for (const { dialect, check } of dialects) {
      const errors = schemaErrors(check, dialect, root, rootText, checked);
      const found = errors ? [errorsText(errors, "; ")] : [];
      if (dialect === "2020-12") {
        if ($defs !== undefined && !isJsonObject($defs)) found.push("data/$defs must be object");
        for (const [key, def] of Object.entries(defs)) {
          const errors = defErrors(check, def, checked);
          if (errors) found.push(errorsText(errors, "; ", `data/$defs/${key}`));
        }
      }
      if (found.length > 0) problems.push(`${where}: the ${kind} schema is not valid JSON Schema ${dialect}: ${found.join("; ")}`);
    }
    schemaRefs(schema, (ref) => {
      const name = defsKey(ref);
      if (name === undefined || !Object.hasOwn(defs, name))
        problems.push(`${where}: the ${kind} schema refers to ${ref}, which it does not define`);
    });
  }
  return problems;
}

/**
 * What 2020-12 finds wrong with the definitions the schema converter shares (frozen all the way down), by identity:
 * each is checked, and written out as JSON, once rather than once for each of the tools that hold it.
 */
const sharedDefErrors = new WeakMap<object, ErrorObject[] | undefined>();

/** What a meta-schema finds wrong with a `$defs` entry: a shared one by identity, another by its JSON. */
function defErrors(check: MetaCheck, def: unknown, checked: SchemaChecks): ErrorObject[] | undefined {
  const shared = typeof def === "object" && def !== null && Object.isFrozen(def) ? def : undefined;
  if (shared && sharedDefErrors.has(shared)) return sharedDefErrors.get(shared);
  const errors = schemaErrors(check, "$defs", def, jsonText(def), checked);
  if (shared) sharedDefErrors.set(shared, errors);
  return errors;
}

/** What a meta-schema finds wrong with a schema, checked once per `kind` (a dialect, or `$defs`) and JSON `text`; undefined when valid. */
function schemaErrors(check: MetaCheck, kind: string, schema: unknown, text: string, checked: SchemaChecks): ErrorObject[] | undefined {
  const key = `${kind}\u0000${text}`;
  if (!checked.has(key)) checked.set(key, check(schema, text));
  return checked.get(key);
}
