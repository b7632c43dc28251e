import { distance } from "fastest-levenshtein";
import { OperationSearchIndex, queryTerms, type SearchableOperation } from "oapi-mcp-gen-runtime/operation-index";
import type { Pool } from "pg";
import type { OperationRow } from "../index.js";

/** How many operations the database hands over for re-ranking: the in-process ranking runs on these. */
export const CANDIDATES = 100;

/** Filters of a catalogue search, as SQL conditions over `oapi_operations` (parameters from `$first`). */
export function filterSql(filters: { method?: string; tag?: string }, first: number): { sql: string; values: string[] } {
  const conditions: string[] = [];
  const values: string[] = [];
  if (filters.method !== undefined) {
    values.push(filters.method);
    conditions.push(`method = $${first + values.length - 1}`);
  }
  if (filters.tag !== undefined) {
    values.push(filters.tag.toLowerCase());
    conditions.push(`tags_lower @> ARRAY[$${first + values.length - 1}::text]`);
  }
  return { sql: conditions.map((condition) => ` AND ${condition}`).join(""), values };
}

/** The query's term groups, and how many operations of the catalogue have each term (its document frequency). */
interface KnownTerms {
  groups: string[][];
  frequency: ReadonlyMap<string, number>;
}

/**
 * The query's term groups, with what the database knows: which terms the loaded documents use and by how many
 * operations, and the word each misspelt word is nearest (one edit, two from eight letters, as the in-process index
 * corrects). A first pass with nothing known asks for every term and word a second pass can ask for.
 */
async function termsKnownTo(pool: Pool, query: string): Promise<KnownTerms> {
  const asked = new Set<string>();
  const written = new Map<string, string>();
  queryTerms(
    query,
    (term) => {
      asked.add(term);
      return false;
    },
    (term, word) => {
      if (word.length >= 4 && word.length <= 24) written.set(word, term);
      return term;
    },
  );
  const frequency = await frequencies(pool, [...asked]);
  // Only words whose term no document has are looked up by their trigrams.
  const misspelt = [...written].filter(([, term]) => !frequency.has(term)).map(([word]) => word);
  const near =
    misspelt.length === 0
      ? []
      : (
          await pool.query<{ asked: string; word: string; term: string }>(
            `SELECT q.word AS asked, w.word, w.term FROM unnest($1::text[]) AS q(word)
             CROSS JOIN LATERAL (
               SELECT DISTINCT word, term FROM oapi_words
               WHERE word % q.word AND length(word) BETWEEN length(q.word) - 2 AND length(q.word) + 2
               LIMIT 50
             ) AS w`,
            [misspelt],
          )
        ).rows;
  const corrections = new Map<string, { term: string; edits: number; word: string }>();
  for (const row of near) {
    const allowed = row.asked.length >= 8 ? 2 : 1;
    const edits = distance(row.word, row.asked);
    const best = corrections.get(row.asked);
    if (edits > allowed || (best && (best.edits < edits || (best.edits === edits && best.word <= row.word)))) continue;
    corrections.set(row.asked, { term: row.term, edits, word: row.word });
  }
  const groups = queryTerms(
    query,
    (term) => frequency.has(term),
    (term, word) => (frequency.has(term) ? term : (corrections.get(word)?.term ?? term)),
  );
  const corrected = [...corrections.values()].map((correction) => correction.term);
  if (corrected.length === 0) return { groups, frequency };
  return { groups, frequency: new Map([...frequency, ...(await frequencies(pool, corrected))]) };
}

/** How many operations of the catalogue have each of the terms (those no document has are absent). */
async function frequencies(pool: Pool, terms: readonly string[]): Promise<Map<string, number>> {
  const rows = await pool.query<{ term: string; operations: number }>(
    "SELECT term, sum(operations)::int AS operations FROM oapi_terms WHERE term = ANY($1::text[]) GROUP BY term",
    [terms],
  );
  return new Map(rows.rows.map((row) => [row.term, row.operations]));
}

/** A term as `to_tsquery` text: itself, and as a prefix from three letters (as the in-process index matches). */
function lexeme(term: string): string {
  return term.length >= 3 ? `${term}:*` : term;
}

/** The terms a `to_tsquery` may hold: the index's own alphabet (a normalised term is lower-case letters and digits). */
const plain = (term: string) => /^[a-z0-9]+$/.test(term);

/** A group of alternatives as `to_tsquery` text, or undefined when none is a plain term. */
function alternatives(group: readonly string[]): string | undefined {
  const terms = [...new Set(group)].filter(plain).map(lexeme);
  return terms.length === 0 ? undefined : `(${terms.join(" | ")})`;
}

/** A word matching more operations than this is too common to find candidates by alone (as BM25 weighs it little). */
const COMMON = 2000;

/**
 * The `to_tsquery` texts that find candidates: `every` matches an operation with a term of each word the catalogue
 * knows (said or meant), the ones a search wants first; `rarer` one with a term of any word not too common; `any`
 * (for ranking) with any term of the query.
 */
function tsqueries({ groups, frequency }: KnownTerms): { every: string; rarer: string; any: string } {
  const operations = (group: readonly string[]) => group.reduce((sum, term) => sum + (frequency.get(term) ?? 0), 0);
  const known = groups.filter((group) => operations(group) > 0);
  const join = (chosen: readonly string[][], operator: string) =>
    chosen
      .map(alternatives)
      .filter((text): text is string => text !== undefined)
      .join(operator);
  return {
    every: join(known.length > 0 ? known : groups, " & "),
    rarer: join(
      groups.filter((group) => operations(group) < COMMON),
      " | ",
    ),
    any: join(groups, " | "),
  };
}

interface CandidateRow extends ShownColumns {
  idx: number;
  searchable: SearchableOperation;
}

const SELECTED = "api, idx, method, path, operation_id, summary, tags, searchable";
const RANK = "ts_rank('{0.1, 0.25, 0.5, 1.0}', terms, to_tsquery('simple', $2))";

/**
 * The candidates for re-ranking, found through the GIN index: first those with a term of every word the catalogue
 * knows, best by the weight of their terms (names, then path, then tags and parameters, then description); then, to
 * fill the set, those with a term of a rarer word. A word most operations have never brings in thousands alone.
 */
async function candidates(pool: Pool, known: KnownTerms, filters: { method?: string; tag?: string }): Promise<CandidateRow[]> {
  const { every, rarer, any } = tsqueries(known);
  if (any === "") return [];
  const filter = filterSql(filters, 4);
  const first = await pool.query<CandidateRow>(
    `SELECT ${SELECTED} FROM oapi_operations WHERE terms @@ to_tsquery('simple', $1)${filter.sql}
     ORDER BY ${RANK} DESC, api, idx LIMIT $3`,
    [every, any, CANDIDATES, ...filter.values],
  );
  if (first.rows.length >= CANDIDATES || rarer === "") return first.rows;
  const more = await pool.query<CandidateRow>(
    `SELECT ${SELECTED} FROM oapi_operations
     WHERE terms @@ to_tsquery('simple', $1) AND NOT terms @@ to_tsquery('simple', $4)${filterSql(filters, 5).sql}
     ORDER BY ${RANK} DESC, api, idx LIMIT $3`,
    [rarer, any, CANDIDATES - first.rows.length, every, ...filter.values],
  );
  return [...first.rows, ...more.rows];
}

/**
 * Operations of every loaded document matching a query, best first: the database finds the candidates by their
 * weighted terms and the in-process ranking orders them.
 */
export async function searchCatalogue(pool: Pool, query: string, filters: { method?: string; tag?: string }): Promise<OperationRow[]> {
  const rows = await candidates(pool, await termsKnownTo(pool, query), filters);
  const index = new OperationSearchIndex(rows.map((row, id) => ({ ...row.searchable, id })));
  return index.search(query).flatMap(({ id, score }) => {
    const row = rows[id];
    return row === undefined ? [] : [operationRow(row, score)];
  });
}

/** The columns of `oapi_operations` a search shows. */
export interface ShownColumns {
  api: string;
  path: string;
  method: string;
  operation_id: string | null;
  summary: string;
  tags: string[];
}

/** What a search shows of one operation, from its columns. */
export function operationRow(row: ShownColumns, score?: number): OperationRow {
  const { api, path, method, operation_id, summary, tags } = row;
  return { api, path, method, operationId: operation_id, summary, tags, ...(score === undefined ? {} : { score }) };
}
