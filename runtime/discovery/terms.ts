import { words } from "../base/words.js";

/** How many words of a request are read. */
export const MAX_QUERY_WORDS = 32;
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
  "some",
]);
/** Long forms API names often abbreviate, folded to the short form. */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ["repository", "repo"],
  ["organization", "org"],
  ["organisation", "org"],
  ["configuration", "config"],
  ["application", "app"],
  ["environment", "env"],
  ["information", "info"],
  ["identifier", "id"],
  ["administrator", "admin"],
  ["authentication", "auth"],
  ["authorization", "auth"],
  ["message", "msg"],
  ["certificate", "cert"],
  ["variable", "var"],
]);

/** Splits text into words at separators and camelCase boundaries (`listRepoIssues` → list, repo, issues). */
export function tokenize(text: string): string[] {
  return words(text);
}

/** Words whose `-ing` or `-ed` ending is not a suffix. */
const NOT_INFLECTED = new Set([
  "string",
  "thing",
  "setting",
  "spring",
  "nothing",
  "something",
  "everything",
  "anything",
  "during",
  "ceiling",
  "sibling",
  "morning",
  "evening",
  "embed",
  "hundred",
]);

/**
 * Light English stemming, the same on both sides of the index: `-ing` and `-ed` come off (a doubled final consonant
 * with them: running → run), then a final `-e` (create, created, creating → creat).
 */
function stem(word: string): string {
  let base = word;
  if (!NOT_INFLECTED.has(word)) {
    if (word.length >= 6 && word.endsWith("ing")) base = word.slice(0, -3);
    else if (word.length >= 6 && word.endsWith("ed") && !word.endsWith("eed")) base = word.slice(0, -2);
    if (base !== word && /([bgmnprt])\1$/.test(base)) base = base.slice(0, -1);
    // British doubling of a final l after an unstressed e: cancelled, labelling, modelled (not spelled, called).
    else if (base !== word && base.length >= 6 && base.endsWith("ell")) base = base.slice(0, -1);
  }
  return base.length >= 5 && base.endsWith("e") ? base.slice(0, -1) : base;
}

/** Lower-cases, drops stop words, folds simple English plurals, common abbreviations and `-ing`/`-ed`/`-e` endings. */
export function normalizeTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower)) return null;
  let singular = lower;
  if (singular.length > 4 && singular.endsWith("ies")) singular = `${singular.slice(0, -3)}y`;
  else if (singular.length > 4 && /(ches|shes|sses|xes)$/.test(singular)) singular = singular.slice(0, -2);
  else if (singular.length > 3 && singular.endsWith("s") && !/(ss|us|is)$/.test(singular)) singular = singular.slice(0, -1);
  // The tables are Maps: a document's `constructor` or `__proto__` is a word, not a property of an object.
  return ABBREVIATIONS.get(singular) ?? stem(singular);
}

/** An operationId without a gRPC-style service namespace (`MemoService_CreateMemo` → `CreateMemo`): it names no action. */
export function withoutNamespace(operationId: string): string {
  return operationId.replace(/(^|\s)[A-Za-z0-9]*Service_/g, "$1");
}

/** The normalised terms of a text, each once. */
export function termSet(text: string): Set<string> {
  return new Set(
    tokenize(text)
      .map(normalizeTerm)
      .filter((term): term is string => term !== null),
  );
}
