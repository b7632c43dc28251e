import MiniSearch from "minisearch";
import { words } from "./words.js";

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

const MAX_QUERY_WORDS = 32;
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
  "my",
]);
/** Long forms API names often abbreviate, folded to the short form. */
const ABBREVIATIONS: Record<string, string> = {
  repository: "repo",
  organization: "org",
  organisation: "org",
  configuration: "config",
  application: "app",
  environment: "env",
  information: "info",
  identifier: "id",
  administrator: "admin",
  authentication: "auth",
  authorization: "auth",
  message: "msg",
};

/** Splits text into words at separators and camelCase boundaries (`listRepoIssues` → list, repo, issues). */
export function tokenize(text: string): string[] {
  return words(text);
}

/** Lower-cases, drops stop words, folds simple English plurals and common abbreviations. */
export function normalizeTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower)) return null;
  let stem = lower;
  if (stem.length > 4 && stem.endsWith("ies")) stem = `${stem.slice(0, -3)}y`;
  else if (stem.length > 4 && /(ches|shes|sses|xes)$/.test(stem)) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith("s") && !/(ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  return ABBREVIATIONS[stem] ?? stem;
}

function termSet(text: string): Set<string> {
  return new Set(
    tokenize(text)
      .map(normalizeTerm)
      .filter((term): term is string => term !== null),
  );
}

const INDEX_OPTIONS = { fields: [...FIELDS], idField: "id", tokenize, processTerm: normalizeTerm };

/**
 * A BM25 index over the operations of one document (MiniSearch), with prefix and light fuzzy matching, re-ranked
 * by how completely the query and an operation's own name or summary cover each other, so `create a gist` puts
 * `gists/create` before `gists/create-comment`.
 */
export class OperationSearchIndex {
  private readonly index: MiniSearch<SearchableOperation>;
  private readonly names = new Map<number, Set<string>[]>();

  /**
   * Indexes the operations, or loads `stored` (from `serialize()` over the same operations) without re-indexing; the
   * operations then need only their id, operationId and summary.
   */
  constructor(operations: readonly SearchableOperation[], stored?: string) {
    if (stored === undefined) {
      this.index = new MiniSearch<SearchableOperation>(INDEX_OPTIONS);
      this.index.addAll(operations);
    } else {
      this.index = MiniSearch.loadJSON<SearchableOperation>(stored, INDEX_OPTIONS);
    }
    for (const operation of operations) this.names.set(operation.id, [termSet(operation.operationId), termSet(operation.summary)]);
  }

  /** The index as JSON text, for the constructor's `stored`. */
  serialize(): string {
    return JSON.stringify(this.index);
  }

  /** Operation ids matching a query, best first, ties broken by document order. */
  search(query: string): { id: number; score: number }[] {
    // Cost bounds: the first 32 words, prefix matching up to 32 characters, typo tolerance up to 24 (3 edits).
    const bounded = tokenize(query).slice(0, MAX_QUERY_WORDS).join(" ");
    const queryTerms = termSet(bounded);
    const results = this.index.search(bounded, {
      boost: BOOST,
      combineWith: "OR",
      prefix: (term) => term.length >= 3 && term.length <= 32,
      fuzzy: (term) => (term.length >= 5 && term.length <= 24 ? 0.2 : false),
      maxFuzzy: 3,
      weights: { fuzzy: 0.3, prefix: 0.5 },
    });
    return results
      .map((result) => {
        const id = Number(result.id);
        return { id, score: result.score * (1 + 2 * this.coverage(id, queryTerms)) };
      })
      .sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** The best, over operationId and summary, of (share of the name matched) × (share of the query matched). */
  private coverage(id: number, queryTerms: ReadonlySet<string>): number {
    if (queryTerms.size === 0) return 0;
    let best = 0;
    for (const name of this.names.get(id) ?? []) {
      if (name.size === 0) continue;
      let matched = 0;
      for (const term of name) if (queryTerms.has(term)) matched++;
      best = Math.max(best, (matched / name.size) * (matched / queryTerms.size));
    }
    return best;
  }
}
