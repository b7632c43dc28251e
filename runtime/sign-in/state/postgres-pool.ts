/**
 * PostgreSQL pools as the runtime's stores open them, over node-postgres, which each caller brings (the module is an
 * optional peer, loaded only by a server that uses a database): one place for the settings every pool needs, and for
 * the care a checked-out connection needs.
 */

/** A connection checked out of a pool, as node-postgres gives it. */
export interface PostgresConnection {
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  release(error?: Error): void;
}

/** What the connections of a pool are opened with. */
export interface PoolSettings {
  url: string;
  /** Connections open at most. */
  max: number;
  /** How long a statement may run before the database cancels it (and 5 s more before the replica stops waiting). */
  statementMs: number;
  /** How long opening a connection may take. */
  connectMs: number;
  /** How the database names this pool's connections (`pg_stat_activity.application_name`). */
  name: string;
}

/**
 * A pool of connections made by node-postgres's `Pool`. A connection it holds idle that is lost (the database
 * restarted, or a proxy dropped it) is reported to `lost`: node-postgres emits 'error', which unheard ends the process.
 */
export function openPostgresPool<Pool extends { on(event: "error", listener: (error: Error) => void): unknown }>(
  PoolClass: new (options: Record<string, unknown>) => Pool,
  settings: PoolSettings,
  lost: (error: Error) => void,
): Pool {
  const pool = new PoolClass({
    connectionString: settings.url,
    max: settings.max,
    statement_timeout: settings.statementMs,
    query_timeout: settings.statementMs + 5_000,
    connectionTimeoutMillis: settings.connectMs,
    application_name: settings.name,
  });
  pool.on("error", lost);
  return pool;
}

/**
 * Runs `work` on a connection checked out of the pool (for a transaction, or a lock held across statements). The pool
 * does not listen to a connection while it is out, so this does: one lost meanwhile fails the statement in progress
 * (or the next) instead of the process, is reported to `lost`, and is closed rather than given back.
 */
export async function withConnection<Connection extends PostgresConnection, T>(
  pool: { connect(): Promise<Connection> },
  work: (connection: Connection) => Promise<T>,
  lost: (error: Error) => void = () => {},
): Promise<T> {
  const connection = await pool.connect();
  let failure: Error | undefined;
  const listener = (error: Error) => {
    failure ??= error;
    lost(error);
  };
  connection.on("error", listener);
  try {
    return await work(connection);
  } finally {
    connection.off("error", listener);
    connection.release(failure);
  }
}
