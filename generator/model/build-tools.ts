import { didYouMean, pushTo, someOf } from "oapi-mcp-gen-runtime";
import { DocumentParseError } from "../../openapi/document/index.js";
import type { ApiModel, OperationModel } from "../../openapi/model/index.js";
import { UserError } from "../base/errors.js";
import { overrideFor, type ResolvedConfig } from "../config/config.js";
import { mcpMarks } from "../config/document-marks.js";
import { DefinitionMemo } from "../schema/json-schema.js";
import { type SchemaChecks, toolSchemaProblems } from "../schema/schema-check.js";
import { trimSchema } from "../schema/schema-trim.js";
import { applyConfirmRule } from "./rules/confirm-rule.js";
import { applyScopeRule } from "./rules/scope-rule.js";
import { bodyPropertyNames, type DirectionMemos, operationToTool, type ToolModel } from "./tool-model.js";
import { TOOL_NAME_PATTERN, toolNameFromOperationId, toolNameFromRoute, uniqueNames } from "./tool-name.js";

/** Turns the selected operations into tool models; every problem is reported at once. */
export function buildTools(model: ApiModel, entries: readonly OperationModel[], config: ResolvedConfig): ToolModel[] {
  const { names, dropped } = assignNames(entries, config);
  const problems: string[] = [];
  const tools: ToolModel[] = [];
  const maxBytes = config.schemas.maxBytes;
  const trimmed: string[] = [];
  const checked: SchemaChecks = new Map();
  const memos: DirectionMemos = { request: new DefinitionMemo(), response: new DefinitionMemo() };
  entries.forEach((entry, index) => {
    const place = entry.operationId ?? `${entry.method.toUpperCase()} ${entry.path}`;
    if (entry.problem !== undefined) {
      problems.push(`${place}: ${entry.problem}`);
      return;
    }
    try {
      const override = overrideFor(config, entry.operationId) ?? {};
      const tool = operationToTool(model, entry, names[index] ?? "", override, config, config.output.validate, memos);
      if (fitSchemas(tool, maxBytes)) trimmed.push(tool.name);
      for (const problem of toolSchemaProblems(tool, checked)) problems.push(problem);
      tools.push(tool);
    } catch (error) {
      if (error instanceof DocumentParseError) {
        problems.push(`${place}: ${error.message}`);
        return;
      }
      if (!(error instanceof UserError)) throw error;
      for (const problem of error.problems) problems.push(problem);
    }
  });
  const pathParameters = new Set(entries.flatMap((entry) => entry.parameters.filter((p) => p.in === "path").map((p) => p.name)));
  for (const name of Object.keys(config.pathPrefixes)) {
    if (!pathParameters.has(name)) {
      problems.push(`pathPrefixes: "${name}" is not a path parameter of any selected operation${didYouMean(name, pathParameters)}`);
    }
  }
  if (problems.length > 0) throw new UserError(problems);
  applyScopeRule(model, entries, tools, config);
  applyConfirmRule(model, entries, tools, config);
  // A global entry is a policy ("Slack's token from the environment"): one no selected operation declares is only noted.
  const parameterNames = new Set(entries.flatMap((entry) => [...entry.parameters.map((p) => p.name), ...bodyPropertyNames(model, entry)]));
  const unused = Object.keys(config.parameters).filter((name) => !parameterNames.has(name));
  if (unused.length > 0)
    tools[0]?.warnings.push(
      `parameters: ${unused.map((name) => `"${name}"${didYouMean(name, parameterNames)}`).join(", ")}: no selected operation declares it`,
    );
  if (trimmed.length > 0) tools.find((tool) => tool.name === trimmed[0])?.warnings.push(trimmedWarning(trimmed, maxBytes));
  if (dropped.length > 0) tools[0]?.warnings.push(...dropped);
  return tools;
}

/** The indexes holding each name. */
function holdersOf(names: readonly string[]): Map<string, number[]> {
  const holders = new Map<string, number[]>();
  names.forEach((name, index) => {
    pushTo(holders, name, index);
  });
  return holders;
}

/** Two names as `a and b`, more as the first three and a count: a document may repeat one operationId thousands of times. */
function namedFew(items: readonly string[]): string {
  return items.length === 2 ? items.join(" and ") : someOf(items, 3);
}

/**
 * Why operations cannot share the tool name they all derive: one operationId on several operations (which the config,
 * keyed by operationId, cannot tell apart), or several operationIds and routes that read alike.
 */
function nameClash(name: string, clashing: readonly OperationModel[]): string {
  const first = clashing.find((entry) => entry.operationId !== undefined)?.operationId;
  if (clashing.every((entry) => entry.operationId === first)) {
    const routes = clashing.map((entry) => `${entry.method.toUpperCase()} ${entry.path}`);
    return `operationId "${first}" is on ${clashing.length} operations (${namedFew(routes)}); operationIds must be unique: rename them in the document, or leave all but one out with select.exclude.paths`;
  }
  const who = clashing.map((entry) =>
    entry.operationId !== undefined ? `"${entry.operationId}"` : `${entry.method.toUpperCase()} ${entry.path}`,
  );
  return `${namedFew(who)} ${who.length === 2 ? "both" : "all"} become the tool "${name}"; give one another name with overrides.${first}.name`;
}

/** Cuts the tool's input and output schemas down to `maxBytes`; true when either was cut. */
function fitSchemas(tool: ToolModel, maxBytes: number): boolean {
  const input = trimSchema(tool.inputSchema, maxBytes);
  const output = trimSchema(tool.outputSchema, maxBytes);
  if (input) tool.inputSchema = input.schema;
  if (output) tool.outputSchema = output.schema;
  return input !== undefined || output !== undefined;
}

/** One line for all trimmed tools, naming a few. */
/** A tool name from the operationId; else from a summary that is an identifier (Square's `ListPayments`); else the route. */
function derivedName(entry: OperationModel): string {
  if (entry.operationId) return toolNameFromOperationId(entry.operationId);
  const summary = entry.summary?.trim() ?? "";
  return IDENTIFIER.test(summary) ? toolNameFromOperationId(summary) : toolNameFromRoute(entry.method, entry.path);
}

/** A summary written as an operationId: one word in camel or Pascal case, or with underscores. */
const IDENTIFIER = /^(?=[A-Za-z]*[a-z])(?=[A-Za-z0-9_]*(?:[a-z][A-Z]|_))[A-Za-z][A-Za-z0-9_]{2,63}$/;

/**
 * Where operations would share a derived name: if one is current and the rest deprecated, the current one keeps it and
 * the rest take `<name>_deprecated`; a name taken from a summary gives way to its route. `derived` is changed in place.
 */
function giveNamesToCurrent(entries: readonly OperationModel[], derived: string[], explicit: readonly (string | undefined)[]): void {
  for (const [name, indexes] of holdersOf(derived)) {
    if (indexes.length < 2) continue;
    const current = indexes.filter((index) => entries[index]?.deprecated !== true);
    for (const index of indexes) {
      const entry = entries[index];
      if (entry === undefined || explicit[index] !== undefined) continue;
      if (current.length === 1 && entry.deprecated) derived[index] = toolNameFromOperationId(`${name}_deprecated`);
      else if (current.length !== 1 && !entry.operationId) derived[index] = toolNameFromRoute(entry.method, entry.path);
    }
  }
}

function trimmedWarning(names: readonly string[], maxBytes: number): string {
  return (
    `schemas.maxBytes: ${names.length} tool(s) had schemas over ${maxBytes} bytes (${someOf(names, 3)}); ` +
    "their deeper $defs are placeholders that admit any value. Raise schemas.maxBytes, or set 0 to keep every schema whole"
  );
}

/**
 * Derived names are made unique; an explicit name that clashes with another tool is an error. Where a current
 * operation and deprecated ones would take one name, the current one takes it and the others end in `_deprecated`.
 * A name the document gives (`x-mcp`) stands where the config gives none and it clashes with no other tool's name;
 * one that clashes is left out with a warning (the document is not the operator's: it never fails the run).
 */
function assignNames(entries: readonly OperationModel[], config: ResolvedConfig): { names: string[]; dropped: string[] } {
  const explicit = entries.map((entry) => overrideFor(config, entry.operationId)?.name);
  const derived = entries.map((entry, index) => explicit[index] ?? derivedName(entry));
  giveNamesToCurrent(entries, derived, explicit);
  const dropped: string[] = [];
  const marked = entries.map((entry, index) => (explicit[index] === undefined ? mcpMarks(entry, []).name : undefined));
  marked.forEach((name, index) => {
    if (name === undefined) return;
    const other = [...derived.keys()].find((j) => j !== index && (derived[j] === name || marked[j] === name));
    if (other === undefined) derived[index] = name;
    else {
      const place = (at: number) => entries[at]?.operationId ?? `${entries[at]?.method.toUpperCase()} ${entries[at]?.path}`;
      dropped.push(`${place(index)}: x-mcp.name "${name}" is also the name of ${place(other)}'s tool; left out`);
    }
  });
  const problems: string[] = [];
  explicit.forEach((name, index) => {
    if (name === undefined) return;
    const other = derived.findIndex((candidate, j) => j !== index && candidate === name);
    if (other !== -1) {
      problems.push(`overrides.${entries[index]?.operationId}.name: "${name}" is also the name of ${entries[other]?.operationId}'s tool`);
    }
  });
  for (const [name, indexes] of holdersOf(derived)) {
    // Operations named by the document must be told apart by the config; only unnamed routes get a numbered suffix.
    const clashing = indexes.map((index) => entries[index]).filter((entry) => entry !== undefined);
    if (clashing.length < 2 || clashing.every((entry) => entry.operationId === undefined)) continue;
    problems.push(nameClash(name, clashing));
  }
  if (problems.length > 0) throw new UserError(problems);
  const names = uniqueNames(derived);
  for (const name of names) {
    if (!TOOL_NAME_PATTERN.test(name)) throw new Error(`internal: derived tool name "${name}" does not match ${TOOL_NAME_PATTERN}`);
  }
  return { names, dropped };
}
