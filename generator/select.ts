import { listOperations, type OperationEntry } from "../openapi/operations.js";
import type { OpenApiDocument } from "../openapi/types.js";
import type { GeneratorConfig } from "./config.js";
import { UserError } from "./errors.js";
import { didYouMean } from "./suggest.js";

/** Finds the allowlisted operations, in allowlist order; every unknown id or override is reported at once. */
export function selectOperations(document: OpenApiDocument, config: GeneratorConfig): OperationEntry[] {
  const byId = new Map<string, OperationEntry[]>();
  for (const entry of listOperations(document)) {
    if (entry.operationId === undefined) continue;
    byId.set(entry.operationId, [...(byId.get(entry.operationId) ?? []), entry]);
  }
  const problems: string[] = [];
  const selected: OperationEntry[] = [];
  for (const id of config.operations) {
    const matches = byId.get(id);
    if (!matches) {
      problems.push(`operations: "${id}" is not an operationId in the document${didYouMean(id, byId.keys())}`);
    } else if (matches.length > 1) {
      const where = matches.map((m) => `${m.method.toUpperCase()} ${m.path}`).join(", ");
      problems.push(`operations: "${id}" names ${matches.length} operations (${where}); operationIds must be unique`);
    } else {
      selected.push(matches[0] as OperationEntry);
    }
  }
  const allowed = new Set(config.operations);
  for (const id of Object.keys(config.overrides ?? {})) {
    if (!allowed.has(id)) problems.push(`overrides: "${id}" is not in the operations allowlist${didYouMean(id, allowed)}`);
  }
  if (problems.length > 0) throw new UserError(problems);
  return selected;
}
