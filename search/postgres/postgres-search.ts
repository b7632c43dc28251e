import { distance } from "fastest-levenshtein";
import { OperationSearchIndex, queryTerms, type SearchableOperation } from "oapi-mcp-gen-runtime/operation-index";
import type { Pool } from "pg";
import type { OperationRow } from "../catalogue.js";

/** How many operations the database hands over for re-ranking: the in-process ranking runs on these. */
export const CANDIDATES = 500;

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

/**
 * The query's term groups, with what the database knows: which terms the loaded documents use, and the word each
 * misspelt word is nearest (one edit, two from eight letters, as the in-process index corrects). A first pass with
 * nothing known asks for every term and word a second pass can ask for.
 */
async function termsKnownTo(pool: Pool, query: string): Promise<string[][]> {
  const asked = new Set<string>();
  const misspelt = new Set<string>();
  queryTerms(
    query,
    (term) => {
      asked.add(term);
      return false;
    },
    (term, word) => {
      if (word.length >= 4 && word.length <= 24) misspelt.add(word);
      return term;
    },
  );
  const known = new Set(
    (await pool.query<{ term: string }>("SELECT DISTINCT term FROM oapi_words WHERE term = ANY($1::text[])", [[...asked]])).rows.map(
      (row) => row.term,
    ),
  );
  const near = await pool.query<{ asked: string; word: string; term: string }>(
    `SELECT q.word AS asked, w.word, w.term FROM unnest($1::text[]) AS q(word)
     CROSS JOIN LATERAL (
       SELECT DISTINCT word, term FROM oapi_words
       WHERE word % q.word AND length(word) BETWEEN length(q.word) - 2 AND length(q.word) + 2
       LIMIT 50
     ) AS w`,
    [[...misspelt]],
  );
  const corrections = new Map<string, { term: string; edits: number; word: string }>();
  for (const row of near.rows) {
    const allowed = row.asked.length >= 8 ? 2 : 1;
    const edits = distance(row.word, row.asked);
    const best = corrections.get(row.asked);
    if (edits > allowed || (best && (best.edits < edits || (best.edits === edits && best.word <= row.word)))) continue;
    corrections.set(row.asked, { term: row.term, edits, word: row.word });
  }
  return queryTerms(
    query,
    (term) => known.has(term),
    (term, word) => (known.has(term) ? term : (corrections.get(word)?.term ?? term)),
  );
}

/** A `to_tsquery` text matching any of the terms, each also as a prefix from three letters (as the in-process index). */
function tsquery(groups: readonly string[][]): string {
  const terms = [...new Set(groups.flat())].filter((term) => /^[a-z0-9]+$/.test(term));
  return terms.map((term) => (term.length >= 3 ? `${term}:*` : term)).join(" | ");
}

interface CandidateRow {
  api: string;
  idx: number;
  method: string;
  path: string;
  operation_id: string | null;
  summary: string;
  tags: string[];
  searchable: SearchableOperation;
}

/**
 * Operations of every loaded document matching a query, best first: the database finds the candidates by their
 * weighted terms (names, then path, then tags and parameters, then description) and the in-process ranking orders them.
 */
export async function searchCatalogue(pool: Pool, query: string, filters: { method?: string; tag?: string }): Promise<OperationRow[]> {
  const groups = await termsKnownTo(pool, query);
  const text = tsquery(groups);
  if (text === "") return [];
  const filter = filterSql(filters, 3);
  const candidates = await pool.query<CandidateRow>(
    `SELECT api, idx, method, path, operation_id, summary, tags, searchable FROM oapi_operations
     WHERE terms @@ to_tsquery('simple', $1)${filter.sql}
     ORDER BY ts_rank('{0.1, 0.25, 0.5, 1.0}', terms, to_tsquery('simple', $1)) DESC, api, idx
     LIMIT $2`,
    [text, CANDIDATES, ...filter.values],
  );
  const rows = candidates.rows;
  const index = new OperationSearchIndex(rows.map((row, id) => ({ ...row.searchable, id })));
  return index.search(query).flatMap(({ id, score }) => {
    const row = rows[id];
    if (row === undefined) return [];
    return [
      {
        api: row.api,
        path: row.path,
        method: row.method,
        operationId: row.operation_id,
        summary: row.summary,
        tags: row.tags,
        score,
      },
    ];
  });
}
