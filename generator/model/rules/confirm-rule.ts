import type { ApiModel, OperationModel } from "../../../openapi/model/index.js";
import type { ResolvedConfig } from "../../config/config-types.js";
import type { ToolModel } from "../tool-model.js";
import { checkOperationIds, globMatchers, unmatchedTargets } from "./rule-targets.js";

/** The config's confirmation rule (`confirm`), as an object. */
interface ConfirmRule {
  destructive?: boolean;
  writes?: boolean;
  tags?: string[];
  paths?: string[];
  operations?: string[];
}

/** `confirm: true` is the destructive tools; `false` or nothing, none. */
function ruleOf(confirm: ResolvedConfig["confirm"]): ConfirmRule | undefined {
  if (confirm === undefined || confirm === false) return undefined;
  return confirm === true ? { destructive: true } : { destructive: true, ...confirm };
}

/**
 * Marks the tools whose calls the user confirms (config `confirm`): destructive ones unless the rule says
 * `destructive: false`, every write with `writes`, and those of its tags, path globs and operationIds (each rule only
 * adds). An operationId the rule names that is not in the document is an error; a tag or glob that matches no selected
 * operation is a warning.
 */
export function applyConfirmRule(
  model: ApiModel,
  entries: readonly OperationModel[],
  tools: readonly ToolModel[],
  config: ResolvedConfig,
): void {
  const rule = ruleOf(config.confirm);
  if (!rule) return;
  checkOperationIds(model, rule.operations ?? [], "confirm.operations");
  const paths = globMatchers(rule.paths ?? []);
  entries.forEach((operation, index) => {
    const tool = tools[index];
    if (!tool) return;
    const { destructiveHint, readOnlyHint } = tool.annotations;
    const asks =
      (rule.destructive === true && destructiveHint === true) ||
      (rule.writes === true && readOnlyHint !== true) ||
      (rule.tags ?? []).some((tag) => operation.tags.includes(tag)) ||
      [...paths.values()].some((matches) => matches(operation.path)) ||
      (operation.operationId !== undefined && (rule.operations ?? []).includes(operation.operationId));
    if (asks) tool.confirm = true;
  });
  const unmatched = unmatchedTargets(entries, rule.tags ?? [], paths);
  if (unmatched.length > 0) tools[0]?.warnings.push(`confirm: ${unmatched.join(", ")} match no selected operation`);
}
