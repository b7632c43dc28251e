import { type ApiSummary, type LoadedApi, ToolFailure } from "../documents/index.js";

/** One API as `list_apis` shows it. */
export type ApiListing = ApiSummary & {
  operations_count: number;
  kind: "openapi" | "graphql";
};

/** What a catalogue-wide `search_endpoints` shows of one operation. */
export type OperationRow = {
  api: string;
  path: string;
  method: string;
  operationId: string | null;
  summary: string;
  tags: string[];
  score?: number;
};

/** A search across every loaded API: ranked by `keyword` (or listed in catalogue order without one), filtered. */
export interface CatalogueQuery {
  keyword: string;
  /** A lower-case HTTP method. */
  method?: string;
  /** A tag, matched case-insensitively to each API's own spelling. */
  tag?: string;
  offset: number;
  limit: number;
}

/** One page of a catalogue-wide search. */
export interface CataloguePage {
  rows: OperationRow[];
  total: number;
  /** The APIs searched: every loaded one, or those with the tag. */
  apisSearched: number;
}

/**
 * Who loads or removes a document, when callers sign in: its owner is the subject that loaded it, and replacing or
 * removing another's document needs the catalogue's administrative scope (`admin`). Without sign-in, no one is asked.
 */
export interface Loader {
  subject: string;
  admin: boolean;
  /** The administrative scope's name, for the refusal. */
  adminScope?: string;
}

/** The failure for a signed-in caller who may not replace or remove a document another user (or the operator) loaded. */
export function notYours(name: string, verb: "replace" | "remove", by?: Loader, held?: { owner?: string | null }): ToolFailure {
  const scope = by?.adminScope ? ` (${by.adminScope}; sign in again with it)` : "";
  const whose = typeof held?.owner === "string" ? "was loaded by another user" : "is the operator's (loaded when the server started)";
  return new ToolFailure(`'${name}' ${whose}: to ${verb} it you need the catalogue's administrative scope${scope}`);
}

/**
 * Whether a loader may replace or remove a document held under a name: anyone without sign-in; signed in, a name no
 * document holds, one's own document, or with the administrative scope any. A document with no owner is the
 * operator's (loaded at start-up with `--load`, or before sign-in was switched on): only the administrative scope
 * changes it.
 */
export function mayChange(held: { owner?: string | null } | undefined, by: Loader | undefined): boolean {
  return by === undefined || by.admin || held === undefined || (typeof held.owner === "string" && held.owner === by.subject);
}

/**
 * The loaded documents every session shares: held in this process (optionally persisted to a folder), or in
 * PostgreSQL for any number of replicas. Tools reach documents only through it.
 */
export interface Catalogue {
  /** Where documents are kept, for logs: `memory`, a folder, or a database (never its password). */
  readonly location: string;
  /** Settles once the catalogue can answer; tool calls wait for it, `/health` does not. */
  readonly ready: Promise<unknown>;
  /** How many APIs are loaded, as last known (for `/health`). */
  readonly size: number;
  /** Whether the catalogue can answer, as last known: false while its database does not (for `/health`). */
  readonly healthy: boolean;
  /** Starts restoring stored documents where this catalogue keeps them in memory; resolves with how many are loaded. */
  startRestore(): Promise<number>;
  /** Loads (or replaces) a document; a failed load keeps what was there. `by`: who, when callers sign in. */
  load(name: string, source: string, options?: { trusted?: boolean; by?: Loader }): Promise<{ api: LoadedApi; replaced: boolean }>;
  /** Removes a document and everything kept of it, or fails naming what is loaded (or whose it is). */
  unload(name: string, by?: Loader): Promise<void>;
  /** A loaded API by name, or a failure naming what exists. */
  get(name: string): Promise<LoadedApi>;
  /** Every loaded API, by name. */
  listings(): Promise<ApiListing[]>;
  /** Operations of every loaded API matching a query, best first (or in catalogue order), one page of them. */
  find(query: CatalogueQuery): Promise<CataloguePage>;
  /** Releases what the catalogue holds open (connections, timers). */
  close(): Promise<void>;
}

/** The listing row of a loaded API. */
export function listingOf(api: LoadedApi): ApiListing {
  return { ...api.summary(), operations_count: api.operations.length, kind: api.kind };
}
