/** What the discovery index reads of an operation, and the words a lexical database adds. */

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
  /** The states it can set or filter by: the values of its status-like arguments (`paid`, `CANCELLED`), space-separated. */
  states?: string;
  /** The document marks it deprecated: it ranks after current operations that match as well. */
  deprecated?: boolean;
}

/**
 * Words a user may say for a document's own words (its normalised terms), from a lexical database at generation time:
 * `related` maps a said term to the document's terms it may mean; `verbs` are the terms that are verbs.
 */
export interface SearchLexicon {
  readonly related: Readonly<Record<string, readonly string[]>>;
  readonly verbs: readonly string[];
  /** Dictionary words one edit from a document's word (their terms): a request's word among them is no misspelling. */
  readonly words?: readonly string[];
}
