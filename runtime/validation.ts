import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ToolDefinition } from "./tool.js";

// ajv-formats ships CommonJS with a default export property.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Compiled argument and result validators of one tool. */
export interface ToolValidators {
  input: ValidateFunction;
  output: ValidateFunction;
}

/** Compiles every tool's input and output schema once, at start-up. */
export function compileValidators(tools: readonly ToolDefinition[]): Map<string, ToolValidators> {
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false, validateSchema: false, logger: false }));
  const validators = new Map<string, ToolValidators>();
  for (const tool of tools) {
    try {
      validators.set(tool.name, { input: ajv.compile(tool.inputSchema), output: ajv.compile(tool.outputSchema) });
    } catch (error) {
      throw new Error(`tool ${tool.name}: schema does not compile: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return validators;
}

/** One line per validation error, e.g. `body/content: must be string`, at most `limit` of them. */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, limit = 5): string {
  const lines = (errors ?? []).map((error) => {
    const at = error.instancePath === "" ? "" : `${error.instancePath.slice(1)}: `;
    if (error.keyword === "additionalProperties") return `${at}unknown property "${String(error.params.additionalProperty)}"`;
    if (error.keyword === "enum") return `${at}must be one of ${JSON.stringify(error.params.allowedValues)}`;
    return `${at}${error.message ?? error.keyword}`;
  });
  const unique = [...new Set(lines)];
  const shown = unique.slice(0, limit).join("; ");
  return unique.length > limit ? `${shown}; and ${unique.length - limit} more` : shown;
}
