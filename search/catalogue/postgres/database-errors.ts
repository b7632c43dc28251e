import pg from "pg";
import { errorCode, errorMessage } from "../../../openapi/fetch/index.js";

/** Network errors of a connection to the database. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);

/** node-postgres's own messages for a connection that failed, was lost or timed out. */
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error)/;

/**
 * Whether an error of a database call (or the error it was caused by) says the database could not be reached, not
 * that it refused a statement: SQLSTATE classes 08 (connection exception), 53 (insufficient resources), 57P (operator
 * intervention: shut down, restarting), a network error, or node-postgres's word for a lost connection.
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
export function unreachable(error: unknown): boolean {
  if (error instanceof pg.DatabaseError) return /^(08|53|57P)/.test(error.code ?? "");
  if (error instanceof Error && error.cause !== undefined && unreachable(error.cause)) return true;
  return NETWORK_CODES.has(errorCode(error) ?? "") || LOST_CONNECTION.test(errorMessage(error));
}

/** Why the database refused a statement, in words a caller can act on, by its SQLSTATE class. */
const REFUSALS: readonly [sqlstate: RegExp, reason: string][] = [
  [/^54/, "part of it passes a size limit of the database's"],
  [/^22/, "it holds a value the database cannot take"],
  [/^57014/, "the database took too long"],
  [/^23/, "it conflicts with what the database holds"],
];

/** A refused statement in plain words (the database's own message goes to the log, never to a caller). */
export function refusalReason(error: pg.DatabaseError): string {
  const known = REFUSALS.find(([sqlstate]) => sqlstate.test(error.code ?? ""));
  return known?.[1] ?? "the server's log has the database's reason";
}
