import type { OperationEntry } from "../openapi/operations.js";
import type { OpenApiDocument } from "../openapi/types.js";
import type { GeneratorConfig } from "./config.js";
import { UserError } from "./errors.js";
import { toolSchemaProblems } from "./schema-check.js";
import { didYouMean } from "./suggest.js";
import { operationToTool, type ToolModel } from "./tool-model.js";
import { TOOL_NAME_PATTERN, toolNameFromOperationId, toolNameFromRoute, uniqueNames } from "./tool-name.js";

/** Turns the selected operations into tool models; every problem is reported at once. */
export function buildTools(document: OpenApiDocument, entries: readonly OperationEntry[], config: GeneratorConfig): ToolModel[] {
  const overrides = config.overrides ?? {};
  const names = assignNames(entries, config);
  const problems: string[] = [];
  const tools: ToolModel[] = [];
  entries.forEach((entry, index) => {
    try {
      const override = (entry.operationId && overrides[entry.operationId]) || {};
      const tool = operationToTool(document, entry, names[index] as string, override, config.pathPrefixes ?? {});
      problems.push(...toolSchemaProblems(tool));
      tools.push(tool);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      problems.push(...error.problems);
    }
  });
  const pathParameters = new Set(entries.flatMap((entry) => entry.parameters.filter((p) => p.in === "path").map((p) => p.name)));
  for (const name of Object.keys(config.pathPrefixes ?? {})) {
    if (!pathParameters.has(name)) {
      problems.push(`pathPrefixes: "${name}" is not a path parameter of any selected operation${didYouMean(name, pathParameters)}`);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  return tools;
}

/** Derived names are made unique; an explicit name that clashes with another tool is an error. */
function assignNames(entries: readonly OperationEntry[], config: GeneratorConfig): string[] {
  const overrides = config.overrides ?? {};
  const explicit = entries.map((entry) => (entry.operationId ? overrides[entry.operationId]?.name : undefined));
  const derived = entries.map(
    (entry, index) =>
      explicit[index] ?? (entry.operationId ? toolNameFromOperationId(entry.operationId) : toolNameFromRoute(entry.method, entry.path)),
  );
  const problems: string[] = [];
  explicit.forEach((name, index) => {
    if (name === undefined) return;
    const other = derived.findIndex((candidate, j) => j !== index && candidate === name);
    if (other !== -1) {
      problems.push(`overrides.${entries[index]?.operationId}.name: "${name}" is also the name of ${entries[other]?.operationId}'s tool`);
    }
  });
  if (problems.length > 0) throw new UserError(problems);
  const names = uniqueNames(derived);
  for (const name of names) {
    if (!TOOL_NAME_PATTERN.test(name)) throw new Error(`internal: derived tool name "${name}" does not match ${TOOL_NAME_PATTERN}`);
  }
  return names;
}
