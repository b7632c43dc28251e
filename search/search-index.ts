import MiniSearch from "minisearch";
import { words } from "../openapi/words.js";

/** The searchable text of one operation. */
export interface SearchableOperation {
  id: number;
  path: string;
  method: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string;
  parameters: string;
}

const FIELDS = ["path", "operationId", "summary", "description", "tags", "parameters"] as const;
const BOOST = { operationId: 3, summary: 3, path: 2, tags: 1.5, parameters: 1, description: 0.7 };
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "the",
  "of",
  "for",
  "to",
  "in",
  "on",
  "by",
  "with",
  "or",
  "is",
  "are",
  "be",
  "this",
  "that",
  "it",
  "as",
  "at",
  "from",
  "api",
]);

/** Splits text into words at separators and camelCase boundaries (`listRepoIssues` → list, repo, issues). */
export function tokenize(text: string): string[] {
  return words(text);
}

/** Lower-cases, drops stop words and folds simple English plurals (`repositories` → `repository`). */
export function normalizeTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower)) return null;
  if (lower.length > 4 && lower.endsWith("ies")) return `${lower.slice(0, -3)}y`;
  if (lower.length > 4 && /(ches|shes|sses|xes)$/.test(lower)) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith("s") && !/(ss|us|is)$/.test(lower)) return lower.slice(0, -1);
  return lower;
}

/** A BM25 index over the operations of one document (MiniSearch), with prefix and light fuzzy matching. */
export class OperationSearchIndex {
  private readonly index = new MiniSearch<SearchableOperation>({
    fields: [...FIELDS],
    idField: "id",
    tokenize,
    processTerm: normalizeTerm,
  });

  constructor(operations: readonly SearchableOperation[]) {
    this.index.addAll(operations);
  }

  /** Operation ids matching a query, best first, ties broken by document order. */
  search(query: string): { id: number; score: number }[] {
    const results = this.index.search(query, {
      boost: BOOST,
      combineWith: "OR",
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      weights: { fuzzy: 0.3, prefix: 0.5 },
    });
    return results.map((result) => ({ id: Number(result.id), score: result.score })).sort((a, b) => b.score - a.score || a.id - b.id);
  }
}
