import type { Logger } from "oapi-mcp-gen-runtime";
import type pg from "pg";
import { errorMessage } from "../../../openapi/fetch/index.js";
import { openPool } from "./connections.js";

/** How often the database is asked whether it answers, and how long it may take to: longer counts as no answer. */
const PROBE_MS = 1_000;

/** How long the probe's own statement and connection may take before the probe gives its connection up. */
const PROBE_STATEMENT_MS = 5_000;

/**
 * Whether the catalogue's database answers, for `/health`: asked each second with `SELECT 1` on a connection of its
 * own (one question at a time, however often `/health` is asked), and told by every call of the database's outcome.
 * A question unanswered after a second (a paused or unreachable host) counts as no answer at once.
 */
export class Liveness {
  private answering = true;
  /** When the question in flight was asked. */
  private asked: number | undefined;
  private readonly pool: pg.Pool;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    url: string,
    private readonly log: Logger,
  ) {
    this.pool = openPool({ url, max: 1, statementMs: PROBE_STATEMENT_MS, connectMs: PROBE_STATEMENT_MS }, (error) =>
      this.connectionLost(error),
    );
  }

  /** Starts asking each second (once the database was reached: while it starts, the catalogue waits for it). */
  start(): void {
    this.timer ??= setInterval(() => void this.check(), PROBE_MS).unref();
  }

  /** Whether the database answers: it did when last asked, and is not keeping a question waiting. */
  get up(): boolean {
    return this.answering && (this.asked === undefined || Date.now() - this.asked <= PROBE_MS);
  }

  /** Notes that a call got the database's answer. */
  answered(): void {
    if (!this.answering) this.log.info("the catalogue's database answers again");
    this.answering = true;
  }

  /** Notes that the database did not answer a call (logged once per outage, with why). */
  lost(error: unknown): void {
    if (this.answering) this.log.warn("the catalogue's database does not answer", { error: errorMessage(error) });
    this.answering = false;
  }

  /** Notes that a connection was lost (a restart, a failover, a proxy's timeout), and asks the database at once. */
  connectionLost(error: Error): void {
    this.log.warn("a connection to the catalogue's database was lost", { error: error.message });
    void this.check();
  }

  /** Asks the database now, unless a question is in flight. */
  async check(): Promise<void> {
    if (this.asked !== undefined) return;
    this.asked = Date.now();
    try {
      await this.pool.query("SELECT 1");
      this.answered();
    } catch (error) {
      this.lost(error);
    } finally {
      this.asked = undefined;
    }
  }

  /** Stops asking, and closes its connection. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.pool.end();
  }
}
