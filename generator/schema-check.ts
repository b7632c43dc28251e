import { Ajv, type ErrorObject } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isJsonObject } from "../openapi/types.js";
import { defsKey, schemaRefs } from "./schema-refs.js";
import type { ToolModel } from "./tool-model.js";

/** Strict clients validate with either dialect, so every tool schema must satisfy both meta-schemas. */
const dialects = [
  { dialect: "draft-07", ajv: new Ajv({ strict: false, logger: false }) },
  { dialect: "2020-12", ajv: new Ajv2020({ strict: false, logger: false }) },
];

/** What the meta-schema check found for each definition already checked, by its JSON: tools share most definitions. */
export type DefinitionChecks = Map<string, ErrorObject[] | undefined>;

/**
 * Problems that keep a tool's schemas from being valid MCP tool schemas; empty when all is well. Checks each
 * meta-schema and that every `$ref` is a `#/$defs/…` entry that exists: what compiling would find, at a fraction
 * of the cost (compiling GitHub's 2,446 schemas takes about 20 s). The root is checked against both dialects and each
 * `$defs` entry once per distinct definition against 2020-12 (draft-07 does not know `$defs`, so never reads them);
 * that is what checking the whole schema finds.
 */
export function toolSchemaProblems(tool: ToolModel, checked: DefinitionChecks = new Map()): string[] {
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
    const found = dialects.map(({ dialect, ajv }) => [
      dialect,
      ajv.validateSchema(root) ? "" : ajv.errorsText(ajv.errors, { separator: "; " }),
    ]);
    if ($defs !== undefined && !isJsonObject($defs)) found[1] = ["2020-12", "data/$defs must be object"];
    for (const [key, def] of Object.entries(isJsonObject($defs) ? $defs : {})) {
      const text = JSON.stringify(def);
      if (!checked.has(text)) checked.set(text, definitionProblem(def));
      const problem = checked.get(text);
      if (problem === undefined) continue;
      const text2020 = dialects[1]?.ajv.errorsText(problem, { separator: "; ", dataVar: `data/$defs/${key}` });
      found[1] = ["2020-12", [found[1]?.[1], text2020].filter(Boolean).join("; ")];
    }
    for (const [dialect, text] of found) {
      if (text) problems.push(`${where}: the ${kind} schema is not valid JSON Schema ${dialect}: ${text}`);
    }
    const defs = isJsonObject($defs) ? $defs : {};
    schemaRefs(schema, (ref) => {
      const name = defsKey(ref);
      if (name === undefined || !Object.hasOwn(defs, name))
        problems.push(`${where}: the ${kind} schema refers to ${ref}, which it does not define`);
    });
  }
  return problems;
}

/** What the 2020-12 meta-schema finds wrong with one definition; undefined when it is valid. */
function definitionProblem(def: unknown): ErrorObject[] | undefined {
  const { ajv } = dialects[1] as (typeof dialects)[number];
  return ajv.validateSchema(def as object) ? undefined : [...(ajv.errors ?? [])];
}
