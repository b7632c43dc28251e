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
/** Field boosts for the words a query means rather than says (synonyms): half of BOOST. */
const SYNONYM_BOOST = Object.fromEntries(Object.entries(BOOST).map(([field, boost]) => [field, boost / 2]));
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

/**
 * What users say for what APIs name, query side only (normalised terms): `open`/`new`/`add` → create, `read`/`show`
 * → get, `remove` → delete, `edit` → update, `reply` → comment. The word itself still counts as much.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  open: ["create"],
  new: ["create"],
  add: ["create"],
  make: ["create"],
  write: ["create"],
  post: ["create"],
  submit: ["create"],
  upload: ["create"],
  read: ["get"],
  fetch: ["get"],
  show: ["get", "list"],
  view: ["get"],
  see: ["get", "list"],
  retrieve: ["get"],
  display: ["get"],
  look: ["get"],
  find: ["search", "get"],
  all: ["list"],
  remove: ["delete"],
  erase: ["delete"],
  drop: ["delete"],
  destroy: ["delete"],
  edit: ["update"],
  change: ["update"],
  modify: ["update"],
  rename: ["update"],
  close: ["update"],
  reply: ["comment", "create"],
  respond: ["comment", "create"],
  answer: ["comment", "create"],
  who: ["user"],
  pr: ["pull"],
  react: ["reaction"],
  emoji: ["reaction"],
  attach: ["attachment"],
  login: ["sign"],
  logon: ["sign"],
  signin: ["sign"],
};

/** Words a user says for themself: the API's "authenticated user" (checked before stop words drop `my`). */
const SELF = new Set(["me", "my", "myself", "mine", "i"]);

/** A query's words, each with the terms it may match: itself (normalised) and what users mean by it. */
function queryTermGroups(query: string): string[][] {
  const rewritten = query.replace(/\blog\s*(?:in|on)\b/gi, "sign in");
  return tokenize(rewritten)
    .slice(0, MAX_QUERY_WORDS)
    .flatMap((word) => {
      if (SELF.has(word.toLowerCase())) return [["authenticated"]];
      const term = normalizeTerm(word);
      return term === null ? [] : [[term, ...(SYNONYMS[term] ?? [])]];
    });
}

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
    const groups = queryTermGroups(query);
    const said = groups.map((group) => group[0] ?? "").join(" ");
    const meant = [...new Set(groups.flatMap((group) => group.slice(1)))].join(" ");
    // What the user said counts fully, what it means less: `list open pull requests` still wants pulls/list first.
    const results = this.index.search(
      { combineWith: "OR", queries: [{ queries: [said] }, { queries: [meant], boost: SYNONYM_BOOST }] },
      {
        boost: BOOST,
        combineWith: "OR",
        // The terms are normalised already (and an expansion such as `authenticated` must not be dropped).
        processTerm: (term) => term,
        prefix: (term) => term.length >= 3 && term.length <= 32,
        fuzzy: (term) => (term.length >= 5 && term.length <= 24 ? 0.2 : false),
        maxFuzzy: 3,
        weights: { fuzzy: 0.3, prefix: 0.5 },
      },
    );
    return results
      .map((result) => {
        const id = Number(result.id);
        return { id, score: result.score * (1 + 2 * this.coverage(id, groups)) };
      })
      .sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /**
   * The best, over operationId and summary, of (share of the name matched) × (share of the query's words matched), a
   * word matching by itself or by what it means.
   */
  private coverage(id: number, groups: readonly string[][]): number {
    if (groups.length === 0) return 0;
    const said = new Set(groups.map((group) => group[0]));
    const meant = new Set(groups.flatMap((group) => group.slice(1)));
    // A word matched by what it means counts half as much as one matched as said.
    const weight = (term: string) => (said.has(term) ? 1 : meant.has(term) ? 0.5 : 0);
    let best = 0;
    for (const name of this.names.get(id) ?? []) {
      if (name.size === 0) continue;
      let matchedName = 0;
      for (const term of name) matchedName += weight(term);
      let matchedQuery = 0;
      for (const group of groups) matchedQuery += Math.max(0, ...group.map((term) => (name.has(term) ? weight(term) : 0)));
      best = Math.max(best, (matchedName / name.size) * (matchedQuery / groups.length));
    }
    return best;
  }
}
