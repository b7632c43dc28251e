import { closest, didYouMean, pushTo } from "oapi-mcp-gen-runtime";
import picomatch from "picomatch";
import type { ApiModel, OperationModel } from "../../openapi/model/index.js";
import { SelectionError } from "../base/errors.js";
import type { GeneratorConfig, OperationFilter } from "../config/config.js";
import { hiddenByDocument } from "../config/document-marks.js";

/**
 * The operations that become tools: the allowlist in its order, then what `select` matches in document order,
 * minus `select.exclude`. Every unknown id, tag or override is reported at once.
 */
export function selectOperations(model: ApiModel, config: GeneratorConfig): OperationModel[] {
  const entries = model.operations;
  const byId = new Map<string, OperationModel[]>();
  for (const entry of entries) if (entry.operationId !== undefined) pushTo(byId, entry.operationId, entry);
  const problems: string[] = [];
  const chosen: OperationModel[] = [];
  for (const id of config.operations ?? []) {
    const matches = byId.get(id);
    if (!matches) problems.push(`operations: "${id}" is not an operationId in the document${didYouMean(id, byId.keys())}`);
    else if (matches.length > 1) {
      const where = matches.map((m) => `${m.method.toUpperCase()} ${m.path}`).join(", ");
      problems.push(`operations: "${id}" names ${matches.length} operations (${where}); operationIds must be unique`);
    } else for (const match of matches) chosen.push(match);
  }
  const select = config.select;
  const tags = new Set(entries.flatMap((entry) => entry.tags));
  for (const [where, filter] of [
    ["select", select],
    ["select.exclude", select?.exclude],
  ] as const) {
    for (const tag of filter?.tags ?? [])
      if (!tags.has(tag)) problems.push(`${where}.tags: no operation has the tag "${tag}"${didYouMean(tag, tags)}`);
  }
  for (const id of select?.exclude?.operationIds ?? []) {
    if (!byId.has(id))
      problems.push(`select.exclude.operationIds: "${id}" is not an operationId in the document${didYouMean(id, byId.keys())}`);
  }
  if (select) {
    const hasRule = select.all === true || [select.tags, select.paths, select.methods].some((list) => (list?.length ?? 0) > 0);
    if (!hasRule) problems.push("select: give `all: true` or at least one of tags, paths, methods");
    else {
      const matcher = filterMatcher(select);
      // An operation the document hides (x-mcp: { hidden: true }) is never picked by a rule; the allowlist still names it.
      for (const entry of entries)
        if ((select.all === true || matcher(entry)) && !hiddenByDocument(entry) && !chosen.includes(entry)) chosen.push(entry);
    }
  }
  const excluded = select?.exclude ? filterMatcher(select.exclude, new Set(select.exclude.operationIds ?? [])) : () => false;
  const selected = chosen.filter((entry) => !excluded(entry));
  const selectedIds = new Set(selected.map((entry) => entry.operationId));
  for (const id of Object.keys(config.overrides ?? {})) {
    if (selectedIds.has(id)) continue;
    if (byId.has(id)) problems.push(`overrides: "${id}" is in the document but not selected; add it to operations, or remove the override`);
    else {
      // The nearest id of the whole document, whether or not it is selected (the nearest selected one may be far off).
      const best = closest(id, byId.keys());
      const hint =
        best === undefined
          ? ""
          : selectedIds.has(best)
            ? ` (did you mean "${best}"?)`
            : ` (did you mean "${best}", which is not selected?)`;
      problems.push(`overrides: "${id}" is not an operationId in the document${hint}`);
    }
  }
  if (problems.length === 0 && selected.length === 0) problems.push(emptySelection(model, config));
  if (problems.length > 0) throw new SelectionError(problems);
  return selected;
}

/** An operation matches a filter when it satisfies every criterion the filter gives (each one any-of). */
function filterMatcher(filter: OperationFilter, operationIds: ReadonlySet<string> = new Set()): (entry: OperationModel) => boolean {
  const paths = filter.paths && filter.paths.length > 0 ? picomatch(filter.paths, { dot: true }) : undefined;
  const methods = new Set((filter.methods ?? []).map((method) => method.toLowerCase()));
  const tags = new Set(filter.tags ?? []);
  const criteria = paths !== undefined || methods.size > 0 || tags.size > 0;
  return (entry) => {
    if (entry.operationId !== undefined && operationIds.has(entry.operationId)) return true;
    if (!criteria) return false;
    return (
      (paths === undefined || paths(entry.path)) &&
      (methods.size === 0 || methods.has(entry.method)) &&
      (tags.size === 0 || entry.tags.some((tag) => tags.has(tag)))
    );
  };
}

/** Why nothing was selected: the filters, or a document without callable operations (webhooks only, or nothing). */
function emptySelection(model: ApiModel, config: GeneratorConfig): string {
  const asked = (config.operations?.length ?? 0) > 0 || Object.keys(config.select ?? {}).length > 0;
  if (model.operations.length > 0 && !asked) {
    return "the selection is empty: the config names no `operations` and no `select` rule; `select: { all: true }` selects every operation";
  }
  if (model.operations.length > 0) return "the selection is empty: no operation of the document was selected";
  const webhooks = model.webhookCount;
  if (webhooks > 0) {
    return `the selection is empty: the document has no operations under "paths", only ${webhooks} webhook(s), which are requests the API sends to you and not tools an MCP server can call`;
  }
  return 'the selection is empty: the document has no operations under "paths"';
}
