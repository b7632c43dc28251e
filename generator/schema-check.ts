import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonObject } from "../openapi/types.js";
import type { ToolModel } from "./tool-model.js";

/** Strict clients validate with either dialect, so every tool schema must compile under both. */
const validators = [
  { dialect: "draft-07", ajv: new Ajv({ strict: false, logger: false, validateFormats: false }) },
  { dialect: "2020-12", ajv: new Ajv2020({ strict: false, logger: false, validateFormats: false }) },
];

/** Problems that keep a tool's schemas from being valid MCP tool schemas; empty when all is well. */
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
    for (const { dialect, ajv } of validators) {
      try {
        ajv.compile(schema as JsonObject);
      } catch (error) {
        problems.push(`${where}: the ${kind} schema does not compile as JSON Schema ${dialect}: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}
