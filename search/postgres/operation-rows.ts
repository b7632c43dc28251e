import { normalizeTerm, type SearchableOperation, tokenize } from "oapi-mcp-gen-runtime/operation-index";
import type { LoadedApi } from "../loaded-api.js";

/** How much of a description is searched and kept for re-ranking (the first words say what an operation does). */
const DESCRIPTION_CHARS = 2000;

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

/** A text's normalised terms, space-separated: what `to_tsvector('simple', …)` keeps as they are. */
function terms(text: string): string {
  return tokenize(text)
    .map(normalizeTerm)
    .filter((term): term is string => term !== null && term !== "")
    .join(" ");
}

/** What the search index holds of one operation, its description cut. */
function searchableOf(operation: SearchableOperation): SearchableOperation {
  return { ...operation, description: operation.description.slice(0, DESCRIPTION_CHARS) };
}

/** A document's operations as columns: what a search shows, finds and re-ranks. */
export function operationColumns(api: LoadedApi): OperationColumns {
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
  const searchable = api.searchable();
  api.operations.forEach((operation, position) => {
    const written = searchable[position];
    if (written === undefined) return;
    const text = searchableOf(written);
    columns.idx.push(operation.index);
    columns.method.push(operation.method);
    columns.path.push(operation.path);
    columns.operationId.push(operation.operationId ?? null);
    columns.summary.push(operation.summary ?? "");
    columns.tags.push([...operation.tags]);
    columns.tagsLower.push(operation.tags.map((tag) => tag.toLowerCase()));
    columns.searchable.push(text);
    columns.a.push(terms(`${text.operationId} ${text.summary}`));
    columns.b.push(terms(text.path));
    columns.c.push(terms(`${text.tags} ${text.parameters}`));
    columns.d.push(terms(text.description));
  });
  return columns;
}

/** Every word of a document's searchable text as written (lower-cased), with its normalised term, once each. */
export function wordsOf(api: LoadedApi): { words: string[]; terms: string[] } {
  const found = new Map<string, string>();
  for (const operation of api.searchable()) {
    const text = searchableOf(operation);
    for (const field of [text.path, text.operationId, text.summary, text.description, text.tags, text.parameters]) {
      for (const word of tokenize(field)) {
        if (word.length > MAX_WORD || found.has(word)) continue;
        const term = normalizeTerm(word);
        if (term !== null && term !== "") found.set(word, term);
      }
    }
  }
  return { words: [...found.keys()], terms: [...found.values()] };
}
