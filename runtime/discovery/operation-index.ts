import { distance } from "fastest-levenshtein";
import MiniSearch from "minisearch";
import {
  actionFactor,
  actionsOf,
  changingVerbSet,
  fieldOwner,
  isPlural,
  methodFactor,
  objectFactor,
  objectOf,
  parentsFactor,
  READING_VERBS,
  saysPlural,
  stateOwnerOf,
  type Terms,
  thingAsked,
  wantedMethods,
} from "./request-intent.js";
import { queryTermGroups } from "./request-words.js";
import type { SearchableOperation, SearchLexicon } from "./searchable.js";
import { normalizeTerm, termSet, tokenize, withoutNamespace } from "./terms.js";

export { queryTerms } from "./request-words.js";
export type { SearchableOperation, SearchLexicon } from "./searchable.js";
export { normalizeTerm, tokenize } from "./terms.js";

const FIELDS = ["path", "operationId", "summary", "description", "tags", "parameters"] as const;
const BOOST = { operationId: 3, summary: 3, path: 2, tags: 1.5, parameters: 1, description: 0.7 };
/** Field boosts for the words a query means rather than says (synonyms): half of BOOST. */
const SYNONYM_BOOST = Object.fromEntries(Object.entries(BOOST).map(([field, boost]) => [field, boost / 2]));

/** How many of the best text-score hits are re-ranked (a catalogue of many documents can match thousands). */
const MAX_RERANKED = 500;

/** What a deprecated operation weighs: it comes after the current ones that match about as well. */
const DEPRECATED_WEIGHT = 0.5;

/** Hits scoring under this share of the best one are cut off. */
const RELEVANCE_FLOOR = 0.05;

/** True when a name word is one edit from, or begins with, a word of four letters or more that the query says. */
function nearlySaid(term: string, said: ReadonlySet<string | undefined>): boolean {
  if (term.length < 4) return false;
  for (const word of said) {
    if (word === undefined || word.length < 4) continue;
    if (term.startsWith(word) || (Math.abs(term.length - word.length) <= 1 && distance(term, word) <= 1)) return true;
  }
  return false;
}

/** Whether a request's first word is a plural noun (`labels`, `invoices`): a verb in the imperative never ends so. */
function pluralFirst(spoken: readonly string[]): boolean {
  return isPlural(spoken.find((word) => normalizeTerm(word) !== null) ?? "");
}

/** What an operation weighs that sets or filters by a state the request names (`mark invoice 12 as paid`). */
const STATE_MATCH = 1.6;

/** The method factor of an operation that sets the state the request's verb names: as good as a wanted method. */
const STATE_VERB_METHOD = 1.6;

/** The action factor of such an operation: as an operation whose name begins with the verb. */
const STATE_VERB_ACTION = 1.5;

/** Whether an operation's states include what the request's verb makes (`cancel` → CANCELLED). */
function setsState(states: ReadonlySet<string> | undefined, verb: readonly string[] | undefined): boolean {
  // A verb that also means making something (`open a pull request`) asks for that, not for the state it shares a word with.
  return states !== undefined && verb?.[0] !== undefined && states.has(verb[0]) && !verb.includes("creat");
}

/** How much of a description stands for an operation whose summary only repeats its name. */
const GIST_CHARS = 300;
/** Where the gist is among an operation's names (after its operationId and summary), and what a match in it weighs. */
const GIST_NAME = 2;
const GIST_WEIGHT = 0.75;

/**
 * What an operation does in the words of its description, where its summary says nothing its name does not (Twilio's
 * "Update call": "Initiates a call redirect or terminates a call"): the description's first sentences; else nothing.
 * (Every description as a name was measured too: one more answer in the top ten on three sets, but a description's
 * "for the authenticated user" then answered "who am I".)
 */
function gistOf(operation: SearchableOperation): string {
  const name = termSet(withoutNamespace(operation.operationId));
  if ([...termSet(operation.summary)].some((term) => !name.has(term))) return "";
  const text = operation.description.trim();
  if (text === "" || text === operation.summary.trim()) return "";
  // Whole sentences within the limit, at least the first part of one.
  const cut = text.slice(0, GIST_CHARS);
  const ends = [...cut.matchAll(/[.!?](?=\s|$)/g)];
  const last = ends.at(-1)?.index;
  return last === undefined ? cut : cut.slice(0, last + 1);
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
  private readonly methods = new Map<number, string>();
  private readonly paths = new Map<number, string>();
  /** Words of the indexed text as written (lower-cased) → their normalised term, by length, to correct misspelt queries. */
  private readonly vocabulary = new Map<number, Map<string, string>>();
  private readonly terms = new Set<string>();
  private readonly verbs: ReadonlySet<string>;
  /** Dictionary words near the document's words: `pull` is not a misspelt `full`. */
  private readonly words: ReadonlySet<string>;
  /** What each operation acts on: the term of its path's last named segment (`/boards/{id}/cards` → card). */
  private readonly objects = new Map<number, string | undefined>();
  /** How many operations act on each object term. */
  private readonly objectCounts = new Map<string, number>();
  /** The operations the document marks deprecated. */
  private readonly deprecated = new Set<number>();
  /** What the state at each state path belongs to (`/projects/{id}/status` → project). */
  private readonly owners = new Map<number, string>();
  /** The states each operation sets or filters by (normalised terms), where it names any. */
  private readonly states = new Map<number, ReadonlySet<string>>();
  /** What each operation does, by the first word of its summary and of its operationId (`Create folder` → creat). */
  private readonly actions = new Map<number, ReadonlySet<string>>();

  /**
   * Indexes the operations, or loads `stored` (from `serialize()` over the same operations) without re-indexing; the
   * operations then need only their id, operationId and summary.
   */
  constructor(
    operations: readonly SearchableOperation[],
    stored?: string,
    private readonly lexicon: SearchLexicon = { related: {}, verbs: [] },
  ) {
    this.verbs = new Set(lexicon.verbs);
    this.words = new Set(lexicon.words);
    if (stored === undefined) {
      this.index = new MiniSearch<SearchableOperation>(INDEX_OPTIONS);
      this.index.addAll(operations);
    } else {
      this.index = MiniSearch.loadJSON<SearchableOperation>(stored, INDEX_OPTIONS);
    }
    this.remember(operations);
  }

  /** Adds operations (ids not in the index yet): a catalogue grows as documents load. */
  add(operations: readonly SearchableOperation[]): void {
    this.index.addAll(operations);
    this.remember(operations);
  }

  /** Removes operations by id (a document replaced or dropped); their words stay known for spelling correction. */
  remove(ids: readonly number[]): void {
    for (const id of ids) {
      if (!this.methods.has(id)) continue;
      this.index.discard(id);
      this.names.delete(id);
      this.methods.delete(id);
      this.paths.delete(id);
      this.count(this.objects.get(id), -1);
      this.objects.delete(id);
      this.deprecated.delete(id);
      this.actions.delete(id);
      this.states.delete(id);
      this.owners.delete(id);
    }
  }

  private remember(operations: readonly SearchableOperation[]): void {
    for (const operation of operations) {
      // Where the summary only repeats the name, the description's first sentences name the operation too.
      const gist = gistOf(operation);
      this.names.set(operation.id, [
        termSet(withoutNamespace(operation.operationId)),
        termSet(operation.summary),
        ...(gist === "" ? [] : [termSet(gist)]),
      ]);
      this.methods.set(operation.id, operation.method.toLowerCase());
      this.paths.set(operation.id, operation.path);
      const object = objectOf(operation.path);
      this.objects.set(operation.id, object);
      this.count(object, 1);
      this.actions.set(operation.id, actionsOf(operation));
      if (operation.deprecated) this.deprecated.add(operation.id);
      if (operation.states) this.states.set(operation.id, termSet(operation.states));
      const owner = stateOwnerOf(operation.path);
      if (owner !== undefined) this.owners.set(operation.id, owner);
      for (const field of FIELDS) {
        for (const word of tokenize(operation[field])) {
          const term = normalizeTerm(word);
          if (term === null) continue;
          this.terms.add(term);
          if (word.length < 4 || word.length > 24) continue;
          const sameLength = this.vocabulary.get(word.length) ?? new Map<string, string>();
          this.vocabulary.set(word.length, sameLength);
          sameLength.set(word, term);
        }
      }
    }
  }

  /** The index as JSON text, for the constructor's `stored`. */
  serialize(): string {
    return JSON.stringify(this.index);
  }

  /** Operation ids matching a query, best first, ties broken by document order; `within` keeps only some operations. */
  search(query: string, within?: (id: number) => boolean): { id: number; score: number }[] {
    // Cost bounds: the first 32 words, prefix matching up to 32 characters, typo tolerance from 4 to 24 (1 to 3 edits).
    const { related } = this.lexicon;
    const groups = queryTermGroups(
      query,
      (term, word) => this.corrected(term, word),
      (term) => (Object.hasOwn(related, term) ? (related[term] ?? []) : []),
      (term) => this.terms.has(term),
      (term) => this.objectCounts.has(term),
    );
    const meansSomething = (term: string) =>
      changingVerbSet().has(term) || READING_VERBS.has(term) || Object.hasOwn(related, term) || this.words.has(term);
    const saidTerms = groups.map((group) => group[0] ?? "");
    const said = saidTerms.join(" ");
    const meant = [...new Set(groups.flatMap((group) => group.slice(1)))].join(" ");
    // What the user said counts fully, what it means less: `list open pull requests` still wants pulls/list first.
    const results = this.index.search(
      { combineWith: "OR", queries: [{ queries: [said] }, { queries: [meant], boost: SYNONYM_BOOST }] },
      {
        boost: BOOST,
        combineWith: "OR",
        // The terms are normalised already (and an expansion such as `authenticated` must not be dropped).
        processTerm: (term) => term,
        // Prefixes reach other forms (protect → protection); typos are looked for only in words the index lacks: a
        // fuzzy walk over the vocabulary is the costly part, and a catalogue of many documents makes it large.
        prefix: (term) => term.length >= 3 && term.length <= 32,
        // Nor in a word known to mean something (`start` is no misspelling of `star`).
        fuzzy: (term) =>
          this.terms.has(term) || term.length < 4 || term.length > 24 || meansSomething(term) ? false : term.length < 8 ? 1 : 0.2,
        maxFuzzy: 3,
        weights: { fuzzy: 0.3, prefix: 0.5 },
        ...(within ? { filter: (result: { id: unknown }) => within(Number(result.id)) } : {}),
      },
    );
    const spoken = tokenize(query);
    const leading = normalizeTerm(spoken[0] ?? "") ?? undefined;
    // A request that begins with a plural (`labels in batch 12 failed`) begins with things, not with a verb.
    const verbs: Terms = pluralFirst(spoken) ? { has: (term: string) => term !== saidTerms[0] && this.verbs.has(term) } : this.verbs;
    const wanted = wantedMethods(groups, verbs, (term) => this.objectCounts.has(term), leading);
    const plural = saysPlural(query);
    const terms = new Set(groups.flat());
    // A verb that makes one of the API's things names the thing (`watch this issue` makes a watcher).
    const verb = groups[0];
    const made = wanted?.methods.has("post") && verb?.some((term) => this.objectCounts.has(term)) ? verb : undefined;
    const thing = fieldOwner(query, groups) ?? made ?? thingAsked(groups, verbs);
    // A hit that matched only by typo tolerance or prefix is weak: it is dropped when some hit matched a word itself.
    const exact = results.filter((result) => result.terms.some((term) => terms.has(term)));
    // Re-ranking is bounded: only the best hits by text score can reach the top after it.
    const ranked = (exact.length > 0 ? exact : results)
      .slice(0, MAX_RERANKED)
      .map((result) => {
        const id = Number(result.id);
        const method = this.methods.get(id) ?? "";
        // An operation that sets the state the request's verb names does what it asks, whatever its method
        // (`cancel project 12` → PUT /projects/{id}/status with CANCELLED), as an operation named by that verb does.
        const doesVerb = method !== "get" && setsState(this.states.get(id), verb);
        const namesState = this.namesState(id, saidTerms);
        const factors =
          (1 + 4 * this.coverage(id, groups)) *
          (doesVerb ? STATE_VERB_METHOD : methodFactor(method, this.paths.get(id) ?? "", wanted, plural)) *
          // A state's path acts on its owner (`/projects/{id}/status` on a project) for a request naming a state.
          objectFactor((namesState && this.owners.get(id)) || this.objects.get(id), groups, thing) *
          (doesVerb ? STATE_VERB_ACTION : actionFactor(this.actions.get(id), groups[0])) *
          parentsFactor(this.paths.get(id) ?? "", terms) *
          (namesState ? STATE_MATCH : 1) *
          (this.deprecated.has(id) ? DEPRECATED_WEIGHT : 1);
        return { id, score: Math.sqrt(result.score) * factors };
      })
      .sort((a, b) => b.score - a.score || a.id - b.id);
    // The relevance cut-off: far weaker hits than the best one drop out.
    const floor = (ranked[0]?.score ?? 0) * RELEVANCE_FLOOR;
    return ranked.filter((hit) => hit.score >= floor);
  }

  /** Whether the request names one of the states an operation sets or filters by. */
  private namesState(id: number, said: readonly string[]): boolean {
    const states = this.states.get(id);
    return states !== undefined && said.some((term) => term !== "" && states.has(term));
  }

  /** Counts an operation's object in or out. */
  private count(object: string | undefined, by: 1 | -1): void {
    if (object === undefined) return;
    const count = (this.objectCounts.get(object) ?? 0) + by;
    if (count > 0) this.objectCounts.set(object, count);
    else this.objectCounts.delete(object);
  }

  /** A query term the index has, else the term of the indexed word one edit (two from eight letters) from what was typed. */
  private corrected(term: string, word: string): string {
    if (this.terms.has(term) || this.words.has(term) || word.length < 4 || word.length > 24) return term;
    const allowed = word.length >= 8 ? 2 : 1;
    let best: string | undefined;
    let bestDistance = allowed + 1;
    for (let length = word.length - allowed; length <= word.length + allowed; length++) {
      for (const [known, knownTerm] of this.vocabulary.get(length) ?? []) {
        const edits = distance(known, word);
        if (edits < bestDistance) {
          best = knownTerm;
          bestDistance = edits;
        }
      }
    }
    return best ?? term;
  }

  /**
   * The best, over operationId, summary and gist, of (share of the name matched) × (share of the query's words
   * matched), a word matching by itself or by what it means.
   */
  private coverage(id: number, groups: readonly string[][]): number {
    if (groups.length === 0) return 0;
    const said = new Set(groups.map((group) => group[0]));
    const meant = new Set(groups.flatMap((group) => group.slice(1)));
    // A word matched by what it means counts half as much as one matched as said.
    const exactWeight = (term: string) => (said.has(term) ? 1 : meant.has(term) ? 0.5 : 0);
    // A name word the query misspelt (one edit) or began counts half as much as the word said.
    const weight = (term: string) => exactWeight(term) || (nearlySaid(term, said) ? 0.5 : 0);
    let best = 0;
    for (const [at, name] of (this.names.get(id) ?? []).entries()) {
      if (name.size === 0) continue;
      // A match in the description's words counts less than one in the operation's own name or summary.
      const scale = at === GIST_NAME ? GIST_WEIGHT : 1;
      let matchedName = 0;
      for (const term of name) matchedName += weight(term);
      let matchedQuery = 0;
      for (const group of groups) matchedQuery += Math.max(0, ...group.map((term) => (name.has(term) ? weight(term) : 0)));
      best = Math.max(best, scale * (matchedName / name.size) * (matchedQuery / groups.length));
    }
    return best;
  }
}
