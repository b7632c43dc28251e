import { didYouMean } from "oapi-mcp-gen-runtime";
import picomatch from "picomatch";
import type { ApiModel, OperationModel } from "../../../openapi/model/index.js";
import { UserError } from "../../base/errors.js";

/** Refuses, in one line each, the operationIds a rule names that the document does not have (`where`: the rule's key). */
export function checkOperationIds(model: ApiModel, ids: readonly string[], where: string): void {
  const known = new Set(model.operations.flatMap((operation) => (operation.operationId !== undefined ? [operation.operationId] : [])));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new UserError(unknown.map((id) => `${where}: "${id}" is not an operationId in the document${didYouMean(id, known)}`));
}

/** A rule's path globs (`*` one segment, `**` any), each with its matcher. */
export function globMatchers(globs: readonly string[]): Map<string, picomatch.Matcher> {
  return new Map(globs.map((glob) => [glob, picomatch(glob, { dot: true })] as const));
}

/** The tags and globs of a rule that match no selected operation, as a warning names them (`tag "x"`, `path "y"`). */
export function unmatchedTargets(
  entries: readonly OperationModel[],
  tags: readonly string[],
  paths: ReadonlyMap<string, picomatch.Matcher>,
): string[] {
  return [
    ...tags.filter((tag) => !entries.some((operation) => operation.tags.includes(tag))).map((tag) => `tag "${tag}"`),
    ...[...paths].filter(([, matches]) => !entries.some((operation) => matches(operation.path))).map(([glob]) => `path "${glob}"`),
  ];
}
