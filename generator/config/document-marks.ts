import { isJsonObject } from "../../openapi/document/index.js";
import type { OperationModel } from "../../openapi/model/index.js";
import type { ResolvedConfig } from "./config-types.js";

/** The vendor extension on an operation that says how it appears as a tool. */
export const MCP_EXTENSION = "x-mcp";

/** What a document says of an operation for MCP (`x-mcp`), as the config's override would say it. */
export interface McpMarks {
  name?: string;
  title?: string;
  description?: string;
  hidden?: boolean;
  scopes?: string[];
  confirm?: boolean;
}

/** The tool-name and scope rules the config's own overrides follow (its schema's patterns). */
const TOOL_NAME = /^[a-z0-9_]{1,64}$/;
const SCOPE = /^[!#-[\]-~]+$/;

/**
 * An operation's `x-mcp` marks, each checked as the config would check it: a value of the wrong kind is left out
 * with a warning naming the operation (the document is not the operator's: it never fails the run).
 */
export function mcpMarks(operation: OperationModel, warnings: string[]): McpMarks {
  const declared = operation.declared[MCP_EXTENSION];
  if (declared === undefined) return {};
  const where = `${operation.operationId ?? `${operation.method.toUpperCase()} ${operation.path}`}: ${MCP_EXTENSION}`;
  if (declared === null || typeof declared !== "object" || Array.isArray(declared)) {
    warnings.push(`${where} must be an object (name, title, description, hidden, scopes, confirm); ignored`);
    return {};
  }
  const marks: McpMarks = {};
  for (const [key, value] of Object.entries(declared)) {
    if (key === "name" && typeof value === "string" && TOOL_NAME.test(value)) marks.name = value;
    else if ((key === "title" || key === "description") && typeof value === "string" && value.trim() !== "") marks[key] = value;
    else if ((key === "hidden" || key === "confirm") && typeof value === "boolean") marks[key] = value;
    else if (key === "scopes" && isScopeList(value)) marks.scopes = [...new Set(value)];
    else warnings.push(`${where}.${key}: ${describe(key)}; ignored`);
  }
  return marks;
}

/** A list of OAuth scope names, each as the config's own scopes are written. */
function isScopeList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((scope) => typeof scope === "string" && SCOPE.test(scope));
}

/** What a mark must be, for the warning about one that is not. */
function describe(key: string): string {
  switch (key) {
    case "name":
      return "a tool name is 1 to 64 of a-z, 0-9 and _";
    case "title":
    case "description":
      return "must be text";
    case "hidden":
    case "confirm":
      return "must be true or false";
    case "scopes":
      return "must be a list of OAuth scope names";
    default:
      return "is not a mark this generator reads (name, title, description, hidden, scopes, confirm)";
  }
}

/** Whether the document hides an operation from the tools (`x-mcp: { hidden: true }`). */
export function hiddenByDocument(operation: OperationModel): boolean {
  const declared = operation.declared[MCP_EXTENSION];
  return isJsonObject(declared) && declared.hidden === true;
}

/**
 * The config with the selected operations' `x-mcp` marks beneath it: a mark is the override the config would write,
 * and the config's own override wins over it key by key; `confirm: true` adds the operation to the confirm rule.
 */
export function withDocumentMarks(
  config: ResolvedConfig,
  selected: readonly OperationModel[],
): { config: ResolvedConfig; warnings: string[] } {
  const warnings: string[] = [];
  const overrides = { ...config.overrides };
  const confirmed: string[] = [];
  for (const operation of selected) {
    const id = operation.operationId;
    // Its name is the model's to give (a tier below the config's, and never one another tool has).
    const { hidden, confirm, name, ...marks } = mcpMarks(operation, warnings);
    if (id === undefined || Object.keys(marks).length + (confirm === true ? 1 : 0) === 0) continue;
    if (Object.keys(marks).length > 0) overrides[id] = { ...marks, ...overrides[id] };
    if (confirm === true) confirmed.push(id);
  }
  if (confirmed.length === 0) return { config: { ...config, overrides }, warnings };
  const rule = config.confirm;
  const base = rule === undefined || rule === false ? { destructive: false } : rule === true ? { destructive: true } : rule;
  const operations = [...new Set([...(base.operations ?? []), ...confirmed])];
  return { config: { ...config, overrides, confirm: { ...base, operations } }, warnings };
}
