import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { isJsonObject } from "../openapi/types.js";
import { defsKey, schemaRefs } from "./schema-refs.js";
import type { ToolModel } from "./tool-model.js";

/** Strict clients validate with either dialect, so every tool schema must satisfy both meta-schemas. */
const dialects = [
  { dialect: "draft-07", ajv: new Ajv({ strict: false, logger: false }) },
  { dialect: "2020-12", ajv: new Ajv2020({ strict: false, logger: false }) },
];

/**
 * Problems that keep a tool's schemas from being valid MCP tool schemas; empty when all is well. Checks each
 * meta-schema and that every `$ref` is a `#/$defs/…` entry that exists: what compiling would find, at a fraction
 * of the cost (compiling GitHub's 2,446 schemas takes about 20 s).
 */
export function toolSchemaProblems(tool: ToolModel): string[] {
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
    for (const { dialect, ajv } of dialects) {
      if (!ajv.validateSchema(schema)) {
        problems.push(
          `${where}: the ${kind} schema is not valid JSON Schema ${dialect}: ${ajv.errorsText(ajv.errors, { separator: "; " })}`,
        );
      }
    }
    const defs = isJsonObject(schema.$defs) ? schema.$defs : {};
    schemaRefs(schema, (ref) => {
      const name = defsKey(ref);
      if (name === undefined || !Object.hasOwn(defs, name))
        problems.push(`${where}: the ${kind} schema refers to ${ref}, which it does not define`);
    });
  }
  return problems;
}
