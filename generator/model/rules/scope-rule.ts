import { scopeAlternatives } from "oapi-mcp-gen-runtime";
import type picomatch from "picomatch";
import type { ApiModel, OperationModel } from "../../../openapi/model/index.js";
import type { ResolvedConfig, ScopeList } from "../../config/config-types.js";
import type { ToolModel } from "../tool-model.js";
import { checkOperationIds, globMatchers, unmatchedTargets } from "./rule-targets.js";

/** The config's scope rule (`auth.scopes`). */
type ScopeRule = NonNullable<ResolvedConfig["auth"]["scopes"]>;

/** A scope list as a list. */
function listOf(scopes: ScopeList | undefined): string[] {
  return scopes === undefined ? [] : typeof scopes === "string" ? [scopes] : [...scopes];
}

/** The scopes of every entry of `table` that `matches`, or undefined when none does. */
function matched(table: Record<string, ScopeList | undefined> | undefined, matches: (key: string) => boolean): string[] | undefined {
  const keys = Object.keys(table ?? {}).filter(matches);
  return keys.length === 0 ? undefined : keys.flatMap((key) => listOf(table?.[key]));
}

/**
 * The scopes the rule gives an operation: those of every entry that matches it, all needed (read or write by its
 * tool's read-only hint, its tags, its path's globs, its operationId). A rule only ever adds: an admin area's scope
 * comes on top of the write scope, never in its place.
 */
function ruleScopes(rule: ScopeRule, operation: OperationModel, readOnly: boolean, paths: Map<string, picomatch.Matcher>): string[] {
  return [
    ...listOf(readOnly ? rule.read : rule.write),
    ...(matched(rule.tags, (tag) => operation.tags.includes(tag)) ?? []),
    ...(matched(rule.paths, (glob) => paths.get(glob)?.(operation.path) === true) ?? []),
    ...(operation.operationId !== undefined ? (matched(rule.operations, (id) => id === operation.operationId) ?? []) : []),
  ];
}

/**
 * Applies the config's scope rule to the tools (one per selected operation, in order): a tool whose operation the
 * document gives no OAuth scope takes the rule's, besides those its override names. An operationId the rule names that is not in the document is an error; a
 * tag or glob that matches no selected operation is a warning.
 */
export function applyScopeRule(
  model: ApiModel,
  entries: readonly OperationModel[],
  tools: readonly ToolModel[],
  config: ResolvedConfig,
): void {
  const rule = config.auth.scopes;
  if (!rule) return;
  checkOperationIds(model, Object.keys(rule.operations ?? {}), "auth.scopes.operations");
  const paths = globMatchers(Object.keys(rule.paths ?? {}));
  // As the runtime reads them: a tool whose document names an OAuth scope for it keeps the document's word.
  const schemes = { schemes: Object.fromEntries(model.securitySchemes) };
  // One tool per selected operation, in the same order.
  entries.forEach((operation, index) => {
    const tool = tools[index];
    if (!tool || scopeAlternatives(tool, schemes).flat().length > 0) return;
    const scopes = [...new Set([...(tool.scopes ?? []), ...ruleScopes(rule, operation, tool.annotations.readOnlyHint === true, paths)])];
    if (scopes.length > 0) tool.scopes = scopes;
  });
  const unmatched = unmatchedTargets(entries, Object.keys(rule.tags ?? {}), paths);
  if (unmatched.length > 0) tools[0]?.warnings.push(`auth.scopes: ${unmatched.join(", ")} match no selected operation`);
}
