import { type DiscoveryData, didYouMean, type ToolDefinition, words } from "oapi-mcp-gen-runtime";
import { type IdSupplier, searchableOperation } from "oapi-mcp-gen-runtime/discovery";
import { OperationSearchIndex, type SearchableOperation } from "oapi-mcp-gen-runtime/operation-index";
import { UserError } from "../base/errors.js";
import type { ResolvedConfig } from "../config/config.js";
import { lexiconFor } from "../lexicon/lexicon.js";
import type { ToolModel } from "./tool-model.js";
import { overBudget, type ToolsListSize } from "./tools-list.js";

/** How the generated server lists its operations: each as a tool, through search, describe and call, or through search, describe and programs. */
export type ServingMode = "tools" | "discovery" | "code";

/** The mode a run serves in: the configured one, or under `auto` discovery when the tools would pass the budget. */
export function servingMode(config: ResolvedConfig, toolCount: number, size: () => ToolsListSize): ServingMode {
  if (config.mode !== "auto") return config.mode;
  return overBudget(toolCount, size, config.budget) ? "discovery" : "tools";
}

/** The tool names of `discovery.alwaysList` (operationIds); one not among the selected operations is an error. */
export function alwaysListedTools(config: ResolvedConfig, tools: readonly ToolModel[]): string[] {
  const byOperationId = new Map(tools.flatMap((tool) => (tool.operationId ? [[tool.operationId, tool.name] as const] : [])));
  const problems: string[] = [];
  const names = config.discovery.alwaysList.flatMap((operationId) => {
    const name = byOperationId.get(operationId);
    if (name === undefined) {
      problems.push(`discovery.alwaysList: "${operationId}" is not a selected operation${didYouMean(operationId, byOperationId.keys())}`);
    }
    return name === undefined ? [] : [name];
  });
  if (problems.length > 0) throw new UserError(problems);
  return names;
}

/** What a discovery server loads: the listing and the search index over the tools, built once, here (`tagNotes`: the first sentence of each tag's description). */
export function discoveryData(
  definitions: readonly ToolDefinition[],
  tags: readonly (readonly string[])[],
  alwaysList: string[],
  tagNotes: ReadonlyMap<string, string> = new Map(),
  links: Record<string, IdSupplier[]> = {},
): DiscoveryData {
  return discoveryDataOf({
    operations: searchableOperations(definitions, tags, tagNotes),
    tags,
    alwaysList,
    tagNotes: [...tagNotes],
    links,
  });
}

/** What the search index is built from: plain data, so it can be built on another thread. */
export interface DiscoveryInput {
  operations: SearchableOperation[];
  tags: readonly (readonly string[])[];
  alwaysList: string[];
  tagNotes: [string, string][];
  /** The ids the document's OpenAPI links say another operation supplies, by tool name. */
  links?: Record<string, IdSupplier[]>;
}

/** The operations as the search index reads them, by position in the tool list. */
export function searchableOperations(
  definitions: readonly ToolDefinition[],
  tags: readonly (readonly string[])[],
  tagNotes: ReadonlyMap<string, string>,
): SearchableOperation[] {
  return definitions.map((definition, id) => searchableOperation(definition, id, tags[id] ?? [], tagNotes));
}

/**
 * The words a lexicon is built over: those that name operations (paths, ids, titles, tags), the ones a request must
 * reach; and every indexed word, which a misspelt request word may be corrected to.
 */
export function lexiconWords(operations: readonly SearchableOperation[]): [vocabulary: string[], indexed: string[]] {
  const named = (operation: SearchableOperation) => [operation.path, operation.operationId, operation.summary, operation.tags];
  return [
    operations.flatMap((operation) => words(named(operation).join(" "))),
    operations.flatMap((operation) => words([...named(operation), operation.description, operation.parameters].join(" "))),
  ];
}

/** The listing, the search index and the lexicon over searchable operations. */
export function discoveryDataOf({ operations, tags, alwaysList, tagNotes, links = {} }: DiscoveryInput): DiscoveryData {
  const index = new OperationSearchIndex(operations);
  return {
    alwaysList,
    tags: operations.map((_, id) => [...(tags[id] ?? [])]),
    index: index.serialize(),
    lexicon: lexiconFor(...lexiconWords(operations)),
    tagNotes: usedTagNotes(tags, new Map(tagNotes)),
    ...(Object.keys(links).length > 0 ? { links } : {}),
  };
}

/** The notes of the tags some operation has, where there is one: what the search tool says of the API's parts. */
export function usedTagNotes(tags: readonly (readonly string[])[], tagNotes: ReadonlyMap<string, string>): Record<string, string> {
  const used = [...new Set(tags.flat())].sort();
  return Object.fromEntries(used.flatMap((tag) => (tagNotes.get(tag) ? [[tag, tagNotes.get(tag) ?? ""]] : [])));
}
