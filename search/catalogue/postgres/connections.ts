import pg from "pg";

/** What the connections of a pool are opened with. */
export interface PoolSettings {
  url: string;
  /** Connections open at most. */
  max: number;
  /** How long a statement may run before the database cancels it (and 5 s more before the replica stops waiting). */
  statementMs: number;
  /** How long opening a connection may take. */
  connectMs: number;
}

/**
 * A pool of connections to the catalogue's database. A connection it holds idle that is lost (the database restarted,
 * or a proxy dropped it) is reported to `lost`: node-postgres emits 'error', which unheard would end the process.
 */
export function openPool(settings: PoolSettings, lost: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.max,
    statement_timeout: settings.statementMs,
    query_timeout: settings.statementMs + 5_000,
    connectionTimeoutMillis: settings.connectMs,
    application_name: "oapi-mcp-gen search",
  });
  pool.on("error", lost);
  return pool;
}

/**
 * Runs `work` on a connection checked out of the pool (for a transaction, or a lock held across statements). The pool
 * does not listen to a connection while it is out, so this does: one lost meanwhile fails the statement in progress
 * (or the next) instead of the process, is reported to `lost`, and is closed rather than given back.
 */
export async function withConnection<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  lost: (error: Error) => void = () => {},
): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  const listener = (error: Error) => {
    failure ??= error;
    lost(error);
  };
  client.on("error", listener);
  try {
    return await work(client);
  } finally {
    client.off("error", listener);
    client.release(failure);
  }
}
