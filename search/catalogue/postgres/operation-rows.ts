import { normalizeTerm, type SearchableOperation, tokenize } from "oapi-mcp-gen-runtime/operation-index";
import type { LoadedApi } from "../../documents/index.js";
import { operationBrief } from "../../views/index.js";

/** How much of a description is searched in the database (the first words say what an operation does). */
const DESCRIPTION_CHARS = 2000;

/** How much of it re-ranking reads: the candidates are indexed anew for each search, so their text is kept short. */
const RERANKED_DESCRIPTION_CHARS = 200;

/**
 * UTF-8 bytes of terms a weight class of one operation gives `to_tsvector`: a tsvector takes up to about three times
 * its text, and PostgreSQL refuses one past 1 MB, so a summary or parameter list longer than this is searched in the
 * database by its first part (four classes of 32 KiB: a tsvector of 400 KB at most).
 */
const TERM_BYTES = 32 * 1024;

/** Words kept for typo correction: the lengths the in-process index corrects (4 to 24 letters), and any shorter term. */
const MAX_WORD = 24;

/** The columns of a document's operations, one array per column, for one `unnest` insert. */
export interface OperationColumns {
  idx: number[];
  method: string[];
  path: string[];
  operationId: (string | null)[];
  summary: string[];
  tags: string[][];
  tagsLower: string[][];
  searchable: SearchableOperation[];
  /** The normalised terms of each weight class: A names (operationId, summary), B the path, C tags and parameters, D the description. */
  a: string[];
  b: string[];
  c: string[];
  d: string[];
}

/** Operations read between two yields to the event loop: a document of thousands never holds up other requests. */
const SLICE = 500;

/** Lets other requests run. */
const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

/** What the search index holds of one operation, its description cut. */
function searchableOf(operation: SearchableOperation, chars = DESCRIPTION_CHARS): SearchableOperation {
  return { ...operation, description: operation.description.slice(0, chars) };
}

/** A document's words: each as written (lower-cased) with its normalised term, and each term with how many operations have it. */
export interface DocumentWords {
  words: string[];
  terms: string[];
  counted: string[];
  operations: number[];
}

/**
 * A document's operations as columns (what a search shows, finds and re-ranks) and its words, read in one pass: each
 * field is split and normalised once.
 */
export async function documentRows(api: LoadedApi): Promise<{ columns: OperationColumns; words: DocumentWords }> {
  const columns: OperationColumns = {
    idx: [],
    method: [],
    path: [],
    operationId: [],
    summary: [],
    tags: [],
    tagsLower: [],
    searchable: [],
    a: [],
    b: [],
    c: [],
    d: [],
  };
  const found = new Map<string, string>();
  const counts = new Map<string, number>();
  const searchable = api.searchable();
  for (const [position, operation] of api.operations.entries()) {
    if (position % SLICE === SLICE - 1) await yieldToOthers();
    const written = searchable[position];
    if (written === undefined) continue;
    const text = searchableOf(written);
    const seen = new Set<string>();
    /**
     * A text's normalised terms, space-separated (what `to_tsvector('simple', …)` keeps as they are), its words noted:
     * those of its first `TERM_BYTES`.
     */
    const terms = (field: string) => {
      const kept: string[] = [];
      let bytes = 0;
      for (const word of tokenize(field)) {
        const term = found.get(word) ?? normalizeTerm(word);
        if (term === null || term === "") continue;
        bytes += Buffer.byteLength(term) + 1;
        if (bytes > TERM_BYTES) break;
        kept.push(term);
        if (word.length > MAX_WORD) continue;
        found.set(word, term);
        seen.add(term);
      }
      return kept.join(" ");
    };
    columns.idx.push(operation.index);
    columns.method.push(operation.method);
    columns.path.push(operation.path);
    columns.operationId.push(operation.operationId ?? null);
    columns.summary.push(operationBrief(operation));
    columns.tags.push([...operation.tags]);
    columns.tagsLower.push(operation.tags.map((tag) => tag.toLowerCase()));
    columns.searchable.push(searchableOf(written, RERANKED_DESCRIPTION_CHARS));
    columns.a.push(terms(`${text.operationId} ${text.summary}`));
    columns.b.push(terms(text.path));
    columns.c.push(terms(`${text.tags} ${text.parameters}`));
    columns.d.push(terms(text.description));
    for (const term of seen) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return {
    columns,
    words: { words: [...found.keys()], terms: [...found.values()], counted: [...counts.keys()], operations: [...counts.values()] },
  };
}
