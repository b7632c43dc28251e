import type { Pool, PoolClient } from "pg";
import { errorMessage } from "../../../openapi/fetch/index.js";
import { withConnection } from "./connections.js";

/** One versioned change to the catalogue's tables; applied once, in order, in a transaction of its own. */
interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Any number to key the advisory lock under which replicas that start together migrate one at a time. */
const MIGRATION_LOCK = 0x6f61706d; // "oapm"

/**
 * The catalogue's tables: a row per document (its text, its normalised form to rebuild the model from, its listing),
 * a row per operation (what a search shows, its weighted terms, its searchable text for re-ranking), the words of
 * each document (for typo correction by trigrams) and its terms (how many of its operations have each). A document's rows go with it (ON DELETE CASCADE). Names sort
 * byte-wise (COLLATE "C"), as the in-process catalogue lists them, whatever the database's locale.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "catalogue",
    sql: `
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
      CREATE SEQUENCE oapi_generation;
      CREATE TABLE oapi_apis (
        name text COLLATE "C" PRIMARY KEY,
        generation bigint NOT NULL,
        source text NOT NULL,
        origin text NOT NULL,
        format text NOT NULL,
        loaded_at text NOT NULL,
        text text NOT NULL,
        bytes bigint NOT NULL,
        document text NOT NULL,
        source_version text NOT NULL,
        load_warnings jsonb NOT NULL,
        listing jsonb NOT NULL,
        tags_lower text[] NOT NULL
      );
      CREATE TABLE oapi_operations (
        api text COLLATE "C" NOT NULL REFERENCES oapi_apis (name) ON DELETE CASCADE,
        idx integer NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        operation_id text,
        summary text NOT NULL,
        tags text[] NOT NULL,
        tags_lower text[] NOT NULL,
        searchable jsonb NOT NULL,
        terms tsvector NOT NULL,
        PRIMARY KEY (api, idx)
      );
      CREATE INDEX oapi_operations_terms ON oapi_operations USING gin (terms);
      CREATE TABLE oapi_words (
        api text COLLATE "C" NOT NULL REFERENCES oapi_apis (name) ON DELETE CASCADE,
        word text NOT NULL,
        term text NOT NULL,
        PRIMARY KEY (api, word)
      );
      CREATE TABLE oapi_terms (
        api text COLLATE "C" NOT NULL REFERENCES oapi_apis (name) ON DELETE CASCADE,
        term text NOT NULL,
        operations integer NOT NULL,
        PRIMARY KEY (api, term)
      );
      CREATE INDEX oapi_terms_term ON oapi_terms (term) INCLUDE (operations);
      CREATE INDEX oapi_words_trigrams ON oapi_words USING gin (word gin_trgm_ops);
    `,
  },
  {
    version: 2,
    name: "document owners",
    // Who loaded each document, when callers sign in: replacing or removing another's needs the administrative scope.
    sql: "ALTER TABLE oapi_apis ADD COLUMN owner text",
  },
];

/**
 * Brings the database to the newest schema this version knows. Idempotent, and safe when replicas start together: they
 * take one advisory lock in turn, and each applies only what no other has. Resolves with the versions it applied; a
 * connection lost on the way fails it (the lock goes with the connection).
 */
export async function migrate(pool: Pool, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return withConnection(pool, async (client) => {
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await client.query(
        "CREATE TABLE IF NOT EXISTS oapi_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
      );
      const applied = new Set(
        (await client.query<{ version: number }>("SELECT version FROM oapi_schema_migrations")).rows.map((row) => row.version),
      );
      const done: number[] = [];
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        await apply(client, migration);
        done.push(migration.version);
      }
      return done;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    }
  });
}

/** Applies one migration in a transaction of its own, and records it there. */
async function apply(client: PoolClient, migration: Migration): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(migration.sql);
    await client.query("INSERT INTO oapi_schema_migrations (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw new Error(`migration ${migration.version} (${migration.name}) failed: ${errorMessage(error)}`, { cause: error });
  }
}
