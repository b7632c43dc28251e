import type { Logger } from "oapi-mcp-gen-runtime";
import { withoutSecrets } from "oapi-mcp-gen-runtime";
import pg from "pg";
import type { OpenApiDocument } from "../../../openapi/document/index.js";
import { errorMessage } from "../../../openapi/fetch/index.js";
import { buildApiModelInSlices } from "../../../openapi/model/index.js";
import { type DocumentParser, LoadedApi, loadFailure, readApi, readSource, type SourcePolicy, ToolFailure } from "../../documents/index.js";
import {
  API_NAME_PATTERN,
  type ApiListing,
  type Catalogue,
  type CatalogueBudget,
  type CataloguePage,
  type CatalogueQuery,
  checkApiName,
  heldBytes,
  type Loader,
  listingOf,
  mayChange,
  noApiHasTag,
  notLoaded,
  notYours,
  roomFailure,
} from "../index.js";
import { ApiCache } from "./api-cache.js";
import { openPool, withConnection } from "./connections.js";
import { refusalReason, unreachable } from "./database-errors.js";
import { Liveness } from "./liveness.js";
import { migrate } from "./migrations.js";
import { documentRows } from "./operation-rows.js";
import { filterSql, operationRow, type ShownColumns, searchCatalogue } from "./postgres-search.js";
import { jsonb, storable } from "./stored-text.js";

/** Any number to key the advisory lock that makes loads and unloads, across replicas, one at a time. */
const WRITE_LOCK = 0x6f61706c; // "oapl"

/**
 * A read may take this long before the database cancels it (and a little longer before the replica stops waiting for
 * a database that does not answer at all); a load's statements, longer. A connection is given up after 5 s.
 */
const STATEMENT_TIMEOUT_MS = 15_000;
const LOAD_TIMEOUT_MS = 300_000;
const CONNECT_TIMEOUT_MS = 5_000;

/** How often `size` (for `/health`) is refreshed from the database. */
const CHECK_MS = 5_000;

/** The one message a caller gets while the database does not answer (its address and error are logged, not shown). */
const UNAVAILABLE = "the catalogue's database does not answer; try again shortly";

/** A page's window as SQL takes it (whole numbers a `bigint` holds), or the caller's mistake named before any SQL runs. */
function checkWindow(query: CatalogueQuery): void {
  if (!Number.isSafeInteger(query.offset) || query.offset < 0) {
    throw new ToolFailure(`invalid cursor '${query.offset}': give the next_cursor of an earlier page`);
  }
  if (!Number.isSafeInteger(query.limit) || query.limit < 0) throw new ToolFailure(`invalid limit '${query.limit}'`);
}

interface Settings {
  url: string;
  /** How long to wait at start-up for a database that is not reachable yet (starting, or its host not up). */
  waitMs: number;
  policy: SourcePolicy;
  parser: DocumentParser;
  budget: CatalogueBudget;
  /** Bytes of document text the replica keeps read documents for (least recently used out). */
  cacheBytes: number;
  log: Logger;
}

interface StoredRow {
  origin: string;
  loaded_at: string;
  document: string;
  source_version: string;
  load_warnings: string[];
}

/**
 * The catalogue in PostgreSQL: documents, their operations and the search terms live in the database, so any number of
 * stateless replicas serve the same catalogue. A replica keeps only a bounded cache of documents it has read, checked
 * against each document's generation on every use: a load through one replica is seen by the others at once.
 */
export class PostgresCatalogue implements Catalogue {
  readonly location: string;
  readonly ready: Promise<unknown> = Promise.resolve();
  private count = 0;
  private readonly cache: ApiCache;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly pool: pg.Pool,
    /** Loads and unloads: statements that may run for minutes. */
    private readonly writes: pg.Pool,
    private readonly liveness: Liveness,
    private readonly settings: Settings,
  ) {
    this.location = withoutSecrets(settings.url);
    this.cache = new ApiCache(settings.cacheBytes);
    this.timer = setInterval(() => void this.refreshCount(), CHECK_MS).unref();
  }

  /**
   * Connects (waiting up to `waitMs` for a database that is not reachable yet), brings the tables to this version's
   * schema, and reads how many documents there are.
   */
  static async open(settings: Settings): Promise<PostgresCatalogue> {
    const { url, log } = settings;
    const liveness = new Liveness(url, log);
    const lost = (error: Error) => liveness.connectionLost(error);
    const reads = openPool({ url, max: 8, statementMs: STATEMENT_TIMEOUT_MS, connectMs: CONNECT_TIMEOUT_MS }, lost);
    const writes = openPool({ url, max: 2, statementMs: LOAD_TIMEOUT_MS, connectMs: CONNECT_TIMEOUT_MS }, lost);
    try {
      const applied = await PostgresCatalogue.migrated(reads, settings);
      if (applied.length > 0) log.info("catalogue schema migrated", { versions: applied });
    } catch (error) {
      await Promise.all([reads.end(), writes.end(), liveness.close()]);
      throw new Error(`cannot open the catalogue at ${withoutSecrets(url)}: ${errorMessage(error)}`);
    }
    liveness.start();
    const catalogue = new PostgresCatalogue(reads, writes, liveness, settings);
    await catalogue.refreshCount();
    return catalogue;
  }

  /** Runs the migrations, trying again while the database cannot be reached, up to the settings' wait. */
  private static async migrated(pool: pg.Pool, settings: Settings): Promise<number[]> {
    const deadline = Date.now() + settings.waitMs;
    for (;;) {
      try {
        return await migrate(pool);
      } catch (error) {
        if (!unreachable(error) || Date.now() >= deadline) throw error;
        settings.log.warn("waiting for the catalogue's database", { store: withoutSecrets(settings.url), error: errorMessage(error) });
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  get size(): number {
    return this.count;
  }

  get healthy(): boolean {
    return this.liveness.up;
  }

  /**
   * Runs work against the database. Its failures reach callers as tool failures in plain words: one message while the
   * database does not answer (this replica unhealthy until it does), or why it could not do what was asked (`doing`).
   */
  private async guard<T>(work: () => Promise<T>, doing = "answer"): Promise<T> {
    try {
      const result = await work();
      this.liveness.answered();
      return result;
    } catch (error) {
      throw this.failure(error, doing);
    }
  }

  /** A caller's failure for a database error (its own message logged, never shown); other failures as they are. */
  private failure(error: unknown, doing = "answer"): unknown {
    if (error instanceof ToolFailure) return error;
    if (unreachable(error)) {
      this.liveness.lost(error);
      return new ToolFailure(UNAVAILABLE);
    }
    if (error instanceof pg.DatabaseError) {
      this.settings.log.error("the catalogue's database refused a statement", { error: error.message, code: error.code });
      return new ToolFailure(`the catalogue's database could not ${doing} (${refusalReason(error)})`);
    }
    return error;
  }

  /** Nothing to restore: the documents stay in the database, and are read when asked for. */
  async startRestore(): Promise<number> {
    return this.count;
  }

  private async refreshCount(): Promise<void> {
    try {
      this.count = (await this.pool.query<{ count: number }>("SELECT count(*)::int AS count FROM oapi_apis")).rows[0]?.count ?? 0;
      this.liveness.answered();
    } catch (error) {
      this.failure(error);
    }
  }

  async load(
    name: string,
    source: string,
    options: { trusted?: boolean; by?: Loader } = {},
  ): Promise<{ api: LoadedApi; replaced: boolean }> {
    checkApiName(name);
    const { policy, parser, budget, log } = this.settings;
    try {
      const text = await readSource(source, policy, options);
      const bytes = Buffer.byteLength(text.text);
      // Checked before the work of reading it, and again where it counts: in the transaction that writes it.
      const early = roomFailure(budget, await this.guard(() => this.others(this.pool, name)), bytes);
      if (early) throw early;
      const { api, json, builtBytes } = await readApi(parser, name, text, new Date().toISOString(), { json: true });
      const document = json ?? JSON.stringify(api.model.document);
      // What the load built counts, as in memory: a small text can build a large document.
      const stored = { source, origin: text.origin, format: text.format, text: text.text, bytes: heldBytes(bytes, builtBytes), document };
      const { replaced, generation } = await this.guard(() => this.write(api, stored, options.by), "store it");
      // Not kept: a replica holds the documents it is asked about, not every one loaded through it.
      this.cache.forget(name);
      await this.refreshCount();
      log.info("document stored", { name, generation, operations: api.operations.length, replaced });
      return { api, replaced };
    } catch (error) {
      // The database's failures come as tool failures already (guard); the document's and the source's as they are.
      if (error instanceof ToolFailure && error.message === UNAVAILABLE) throw new ToolFailure(`Failed to load '${name}': ${UNAVAILABLE}.`);
      throw loadFailure(name, errorMessage(error), await this.has(name));
    }
  }

  /** What the documents other than `name` hold: how many, and their bytes. */
  private async others(client: pg.Pool | pg.PoolClient, name: string): Promise<{ count: number; bytes: number }> {
    const row = (
      await client.query<{ count: number; bytes: string }>(
        "SELECT count(*)::int AS count, coalesce(sum(bytes), 0)::text AS bytes FROM oapi_apis WHERE name <> $1",
        [name],
      )
    ).rows[0];
    return { count: row?.count ?? 0, bytes: Number(row?.bytes ?? 0) };
  }

  private async has(name: string): Promise<boolean> {
    return this.pool
      .query("SELECT 1 FROM oapi_apis WHERE name = $1", [name])
      .then((result) => (result.rowCount ?? 0) > 0)
      .catch(() => false);
  }

  /**
   * Writes a document, its operations and its words in one transaction, replacing what was stored under its name:
   * readers see the old document or the new one, never a part. Writes from every replica take one lock in turn.
   */
  private async write(
    api: LoadedApi,
    stored: { source: string; origin: string; format: string; text: string; bytes: number; document: string },
    by: Loader | undefined,
  ): Promise<{ replaced: boolean; generation: string }> {
    const { columns, words } = await documentRows(api);
    return this.transaction(async (client) => {
      // Whose it is, read and kept locked until this transaction ends: no other replica replaces it meanwhile.
      const held = await heldAs(client, api.name);
      if (!mayChange(held, by)) throw notYours(api.name, "replace", by, held);
      const failure = roomFailure(this.settings.budget, await this.others(client, api.name), stored.bytes);
      if (failure) throw failure;
      const replaced = ((await client.query("DELETE FROM oapi_apis WHERE name = $1", [api.name])).rowCount ?? 0) > 0;
      const generation = (await client.query<{ generation: string }>("SELECT nextval('oapi_generation')::text AS generation")).rows[0]
        ?.generation;
      if (generation === undefined) throw new Error("the database gave no generation");
      await client.query(
        `INSERT INTO oapi_apis (name, generation, source, origin, format, loaded_at, text, bytes, document, source_version,
           load_warnings, listing, tags_lower, owner)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          api.name,
          generation,
          storable(stored.source),
          storable(stored.origin),
          stored.format,
          api.loadedAt,
          storable(stored.text),
          stored.bytes,
          // A text column (JSON escapes NUL and lone surrogates), written in the parse worker.
          stored.document,
          storable(api.sourceVersion),
          jsonb(api.loadWarnings),
          jsonb(listingOf(api)),
          api.tags().map((tag) => storable(tag.name.toLowerCase())),
          by ? storable(by.subject) : null,
        ],
      );
      await client.query(
        `INSERT INTO oapi_operations (api, idx, method, path, operation_id, summary, tags, tags_lower, searchable, terms)
         SELECT $1, idx, method, path, operation_id, summary,
           ARRAY(SELECT jsonb_array_elements_text(tags::jsonb)), ARRAY(SELECT jsonb_array_elements_text(tags_lower::jsonb)),
           searchable::jsonb,
           setweight(to_tsvector('simple', a), 'A') || setweight(to_tsvector('simple', b), 'B')
             || setweight(to_tsvector('simple', c), 'C') || setweight(to_tsvector('simple', d), 'D')
         FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
           $10::text[], $11::text[], $12::text[], $13::text[])
           AS o(idx, method, path, operation_id, summary, tags, tags_lower, searchable, a, b, c, d)`,
        [
          api.name,
          columns.idx,
          columns.method,
          columns.path.map(storable),
          columns.operationId.map((id) => (id === null ? null : storable(id))),
          columns.summary.map(storable),
          columns.tags.map(jsonb),
          columns.tagsLower.map(jsonb),
          columns.searchable.map(jsonb),
          columns.a.map(storable),
          columns.b.map(storable),
          columns.c.map(storable),
          columns.d.map(storable),
        ],
      );
      await client.query(
        "INSERT INTO oapi_words (api, word, term) SELECT $1, word, term FROM unnest($2::text[], $3::text[]) AS w(word, term)",
        [api.name, words.words.map(storable), words.terms.map(storable)],
      );
      await client.query(
        "INSERT INTO oapi_terms (api, term, operations) SELECT $1, term, operations FROM unnest($2::text[], $3::int[]) AS t(term, operations)",
        [api.name, words.counted.map(storable), words.operations],
      );
      return { replaced, generation };
    });
  }

  /**
   * Runs `work` in a transaction holding the write lock, on a connection with a load's time budget. A connection lost
   * in it fails `work` (the database rolls it back) and is reported to the liveness check.
   */
  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return withConnection(
      this.writes,
      async (client) => {
        try {
          await client.query("BEGIN");
          await client.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK]);
          const result = await work(client);
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {});
          throw error;
        }
      },
      (error) => this.liveness.connectionLost(error),
    );
  }

  async unload(name: string, by?: Loader): Promise<void> {
    checkApiName(name);
    const removed = await this.guard(() =>
      this.transaction(async (client) => {
        const held = await heldAs(client, name);
        if (!mayChange(held, by)) throw notYours(name, "remove", by, held);
        return ((await client.query("DELETE FROM oapi_apis WHERE name = $1", [name])).rowCount ?? 0) > 0;
      }),
    );
    this.cache.forget(name);
    await this.refreshCount();
    if (!removed) throw notLoaded(name, await this.guard(() => this.names()));
    this.settings.log.info("document removed", { name });
  }

  async get(name: string): Promise<LoadedApi> {
    // A name no document can have is not looked up (and text PostgreSQL cannot hold never reaches it).
    if (!API_NAME_PATTERN.test(name)) throw notLoaded(name, await this.guard(() => this.names()));
    return this.guard(() => this.stored(name));
  }

  /** A stored document: from the cache when it holds this generation of it, else read. */
  private async stored(name: string): Promise<LoadedApi> {
    const row = (
      await this.pool.query<{ generation: string; bytes: string }>(
        "SELECT generation::text AS generation, bytes::text AS bytes FROM oapi_apis WHERE name = $1",
        [name],
      )
    ).rows[0];
    if (row === undefined) throw notLoaded(name, await this.names());
    return this.cache.get(name, row.generation, Number(row.bytes), () => this.read(name));
  }

  /** A stored document rebuilt: its normalised form parsed, its model read a slice at a time. */
  private async read(name: string): Promise<LoadedApi> {
    const row = (
      await this.pool.query<StoredRow>("SELECT origin, loaded_at, document, source_version, load_warnings FROM oapi_apis WHERE name = $1", [
        name,
      ])
    ).rows[0];
    if (row === undefined) throw notLoaded(name, await this.names());
    const document: OpenApiDocument = JSON.parse(row.document);
    const model = await buildApiModelInSlices(document);
    return new LoadedApi(name, document, row.source_version, row.origin, row.loaded_at, row.load_warnings, model);
  }

  private async names(): Promise<string[]> {
    return (await this.pool.query<{ name: string }>("SELECT name FROM oapi_apis ORDER BY name")).rows.map((row) => row.name);
  }

  async listings(): Promise<ApiListing[]> {
    return this.guard(() => this.listed());
  }

  private async listed(): Promise<ApiListing[]> {
    const rows = (await this.pool.query<{ listing: ApiListing }>("SELECT listing FROM oapi_apis ORDER BY name")).rows;
    this.count = rows.length;
    return rows.map((row) => row.listing);
  }

  async find(query: CatalogueQuery): Promise<CataloguePage> {
    checkWindow(query);
    // Stored tags have U+FFFD for what PostgreSQL's text cannot hold, and so does the tag looked for.
    return this.guard(() => this.found({ ...query, ...(query.tag === undefined ? {} : { tag: storable(query.tag) }) }));
  }

  private async found(query: CatalogueQuery): Promise<CataloguePage> {
    const apisSearched = await this.apisWithTag(query.tag);
    const filters = { ...(query.method ? { method: query.method } : {}), ...(query.tag ? { tag: query.tag } : {}) };
    if (query.keyword !== "") {
      const ranked = await searchCatalogue(this.pool, query.keyword, filters);
      return { rows: ranked.slice(query.offset, query.offset + query.limit), total: ranked.length, apisSearched };
    }
    const filter = filterSql(filters, 3);
    const [page, total] = await Promise.all([
      this.pool.query<ShownColumns>(
        `SELECT api, path, method, operation_id, summary, tags FROM oapi_operations WHERE true${filter.sql}
         ORDER BY api, idx LIMIT $1 OFFSET $2`,
        [query.limit, query.offset, ...filter.values],
      ),
      this.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM oapi_operations WHERE true${filterSql(filters, 1).sql}`, [
        ...filter.values,
      ]),
    ]);
    return { rows: page.rows.map((row) => operationRow(row)), total: total.rows[0]?.count ?? 0, apisSearched };
  }

  /** How many APIs a search covers: every one, or those with the tag (a failure when none has it). */
  private async apisWithTag(tag: string | undefined): Promise<number> {
    if (tag === undefined) {
      await this.refreshCount();
      return this.count;
    }
    const count =
      (
        await this.pool.query<{ count: number }>("SELECT count(*)::int AS count FROM oapi_apis WHERE tags_lower @> ARRAY[$1::text]", [
          tag.toLowerCase(),
        ])
      ).rows[0]?.count ?? 0;
    if (count === 0) throw noApiHasTag(tag);
    return count;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([this.pool.end(), this.writes.end(), this.liveness.close()]);
  }

  /** What the replica holds of documents (for tests of the cache's bound). */
  get cached(): { count: number; bytes: number } {
    return this.cache.held;
  }
}

/** Who loaded the document held under a name (owner null: the operator), its row locked for the transaction; undefined when none is. */
async function heldAs(client: pg.PoolClient, name: string): Promise<{ owner: string | null } | undefined> {
  return (await client.query<{ owner: string | null }>("SELECT owner FROM oapi_apis WHERE name = $1 FOR UPDATE", [name])).rows[0];
}
