import { EnvironmentError } from "../../base/environment-error.js";
import type { Logger } from "../../base/logger.js";
import { withoutSecrets } from "./database-url.js";
import { openPostgresPool, type PostgresConnection, withConnection } from "./postgres-pool.js";
import type { Advance, SignInState } from "./sign-in-state.js";

/** The tables, created when missing (every statement may run at once on every replica). */
const SCHEMA = [
  "CREATE TABLE IF NOT EXISTS oapi_signin_codes (jti text PRIMARY KEY, expires_at timestamptz NOT NULL)",
  `CREATE TABLE IF NOT EXISTS oapi_signin_families (family text PRIMARY KEY, subject text NOT NULL, next_generation integer NOT NULL,
     revoked boolean NOT NULL DEFAULT false, expires_at timestamptz NOT NULL)`,
  "CREATE TABLE IF NOT EXISTS oapi_signin_subjects (subject text PRIMARY KEY, revoked_at timestamptz NOT NULL)",
];

/** How long this replica takes "not revoked" from the database as it stands: a revocation elsewhere holds here within it. */
export const REVOCATION_CHECK_MS = 2_000;
/** How often expired rows are cleared. */
const SWEEP_MS = 10 * 60_000;

/** The part of node-postgres this store uses. */
interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
}
interface Pool extends Queryable {
  connect(): Promise<Queryable & PostgresConnection>;
  end(): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** node-postgres as its module gives it: a default export with the pool class. */
interface PgModule {
  default: { Pool: new (options: Record<string, unknown>) => Pool };
}

function isPgModule(value: unknown): value is PgModule {
  if (typeof value !== "object" || value === null || !("default" in value)) return false;
  const main = value.default;
  return typeof main === "object" && main !== null && "Pool" in main && typeof main.Pool === "function";
}

/** Opens the pool with node-postgres, which a deployment adds beside the server (`server.include: [postgres]`). */
async function openPool(url: string, log: Logger): Promise<Pool> {
  const loaded: unknown = await import("pg").catch(() => undefined);
  if (!isPgModule(loaded))
    throw new EnvironmentError(
      "AUTH_STATE_URL is a PostgreSQL URL, but its driver is not installed: add postgres to server.include in the generator's config and generate again (or npm install pg@8 beside the server)",
    );
  const settings = { url, max: 5, statementMs: 5_000, connectMs: 5_000, name: "oapi-mcp-gen sign-in" };
  return openPostgresPool(loaded.default.Pool, settings, (error) =>
    log.warn("sign-in state: a database connection was lost", { error: error.message }),
  );
}

/**
 * Sign-in state in PostgreSQL, shared by every replica behind one URL and kept across restarts: a code is used once
 * anywhere, a refresh token's generation advances in one row per sign-in (a reuse on any replica revokes the sign-in
 * everywhere), and revocations hold on every replica within `REVOCATION_CHECK_MS`.
 */
export class PostgresSignInState implements SignInState {
  readonly location: string;
  /** Families and subjects found not revoked, until when this replica takes that as it stands. */
  private readonly clear = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  private constructor(
    private readonly pool: Pool,
    url: string,
    private readonly log: Logger,
  ) {
    this.location = withoutSecrets(url);
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Connects and creates the tables; fails naming the database (without its password) when it cannot. */
  static async open(url: string, log: Logger): Promise<PostgresSignInState> {
    const pool = await openPool(url, log);
    try {
      for (const statement of SCHEMA) await createIfMissing(pool, statement);
    } catch (error) {
      await pool.end().catch(() => {});
      throw new Error(`cannot open the sign-in state at ${withoutSecrets(url)}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return new PostgresSignInState(pool, url, log);
  }

  async useCode(jti: string, expiresAt: number): Promise<boolean> {
    const inserted = await this.pool.query(
      "INSERT INTO oapi_signin_codes (jti, expires_at) VALUES ($1, to_timestamp($2 / 1000.0)) ON CONFLICT (jti) DO NOTHING",
      [jti, expiresAt],
    );
    return inserted.rowCount === 1;
  }

  async startFamily(family: string, subject: string, expiresAt: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO oapi_signin_families (family, subject, next_generation, expires_at) VALUES ($1, $2, 0, to_timestamp($3 / 1000.0))
       ON CONFLICT (family) DO NOTHING`,
      [family, subject, expiresAt],
    );
  }

  async advance(family: string, generation: number, subject: string, expiresAt: number): Promise<Advance> {
    const outcome = await withConnection(this.pool, (client) => this.advanceOn(client, family, generation, subject, expiresAt));
    if (outcome !== "ok") this.clear.delete(`family ${family}`);
    return outcome;
  }

  /** One transaction on one connection: the family's row, locked, read and moved on. */
  private async advanceOn(client: Queryable, family: string, generation: number, subject: string, expiresAt: number): Promise<Advance> {
    try {
      await client.query("BEGIN");
      // The row is taken for this transaction: two replicas given one refresh token at once take it in turn.
      await client.query(
        `INSERT INTO oapi_signin_families (family, subject, next_generation, expires_at) VALUES ($1, $2, $3, to_timestamp($4 / 1000.0))
         ON CONFLICT (family) DO NOTHING`,
        [family, subject, generation, expiresAt],
      );
      const row = (await client.query("SELECT next_generation, revoked FROM oapi_signin_families WHERE family = $1 FOR UPDATE", [family]))
        .rows[0];
      const outcome: Advance = row?.revoked === true ? "revoked" : Number(row?.next_generation) > generation ? "reused" : "ok";
      if (outcome === "ok")
        await client.query(
          "UPDATE oapi_signin_families SET next_generation = $2, expires_at = to_timestamp($3 / 1000.0) WHERE family = $1",
          [family, generation + 1, expiresAt],
        );
      if (outcome === "reused") await client.query("UPDATE oapi_signin_families SET revoked = true WHERE family = $1", [family]);
      await client.query("COMMIT");
      return outcome;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  }

  async isRevoked(family: string, subject: string, issuedAt: number): Promise<boolean> {
    const now = Date.now();
    const familyKey = `family ${family}`;
    const subjectKey = `subject ${subject}@${issuedAt}`;
    if ((this.clear.get(familyKey) ?? 0) > now && (this.clear.get(subjectKey) ?? 0) > now) return false;
    const { rows } = await this.pool.query(
      `SELECT
         EXISTS (SELECT 1 FROM oapi_signin_families WHERE family = $1 AND revoked) AS family_revoked,
         EXISTS (SELECT 1 FROM oapi_signin_subjects WHERE subject = $2 AND revoked_at >= to_timestamp($3)) AS subject_revoked`,
      [family, subject, issuedAt],
    );
    const revoked = rows[0]?.family_revoked === true || rows[0]?.subject_revoked === true;
    if (!revoked) {
      if (this.clear.size > 100_000) this.clear.clear();
      this.clear.set(familyKey, now + REVOCATION_CHECK_MS);
      this.clear.set(subjectKey, now + REVOCATION_CHECK_MS);
    }
    return revoked;
  }

  async revokeFamily(family: string, subject: string, expiresAt: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO oapi_signin_families (family, subject, next_generation, revoked, expires_at) VALUES ($1, $2, 0, true, to_timestamp($3 / 1000.0))
       ON CONFLICT (family) DO UPDATE SET revoked = true`,
      [family, subject, expiresAt],
    );
    this.clear.delete(`family ${family}`);
  }

  async revokeSubject(subject: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO oapi_signin_subjects (subject, revoked_at) VALUES ($1, now())
       ON CONFLICT (subject) DO UPDATE SET revoked_at = now()`,
      [subject],
    );
    for (const key of [...this.clear.keys()]) if (key.startsWith(`subject ${subject}@`)) this.clear.delete(key);
  }

  async check(): Promise<void> {
    await this.pool.query("SELECT 1");
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.pool.end();
  }

  /** Clears what has expired: used codes, finished sign-ins, and subject revocations no refresh token outlives. */
  private async sweep(): Promise<void> {
    try {
      await this.pool.query("DELETE FROM oapi_signin_codes WHERE expires_at < now()");
      await this.pool.query("DELETE FROM oapi_signin_families WHERE expires_at < now()");
      await this.pool.query("DELETE FROM oapi_signin_subjects WHERE revoked_at < now() - interval '31 days'");
    } catch (error) {
      this.log.warn("sign-in state: clearing expired rows failed", { error: error instanceof Error ? error.message : String(error) });
    }
  }
}

/** Runs a `CREATE … IF NOT EXISTS`; replicas starting together may race to it, and the loser finds the table there. */
async function createIfMissing(pool: Pool, statement: string): Promise<void> {
  try {
    await pool.query(statement);
  } catch (error) {
    // 23505 / 42P07: another replica created it between the check and the create.
    const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
    if (code !== "23505" && code !== "42P07") throw error;
  }
}
