import type { Logger } from "./logger.js";
import { openRequestScope } from "./request-scope.js";

/**
 * The audit trail's events, one log line each (`"message": "audit"`, `"event"` one of these): a sign-in, a refusal
 * (with its reason), a revocation, a change to the search server's catalogue. Each names the user and client where
 * known; README "Operating it" lists the fields.
 */
export type AuditEvent =
  | { event: "sign-in"; mode: "resource" | "proxy"; user: string; client?: string }
  | { event: "refused"; status: number; reason: string; user?: string; client?: string; from?: string }
  | { event: "revoked"; what: "sign-in" | "user"; by: "client" | "reuse" | "operator"; user?: string; client?: string }
  | { event: "catalogue"; action: "load" | "replace" | "unload"; api: string; user?: string; client?: string; source?: string };

/** A caller as audit and tool-call lines name it: its user (the token's subject), and its client when known. */
export function namedCaller(caller: { subject: string; client?: string | undefined } | undefined): { user?: string; client?: string } {
  return caller ? { user: caller.subject, ...(caller.client ? { client: caller.client } : {}) } : {};
}

/**
 * Writes one audit line: refusals at `warn` (an operator watches them), the rest at `info`. A refusal names where it
 * came from (the request's caller: its network group, or its user) unless it says so itself.
 */
export function audit(log: Logger, entry: AuditEvent): void {
  const from = entry.event === "refused" && entry.from === undefined ? openRequestScope()?.caller : undefined;
  const fields = Object.fromEntries(Object.entries({ ...entry, from }).filter(([, value]) => value !== undefined));
  if (entry.event === "refused" && entry.status >= 500) log.error("audit", fields);
  else if (entry.event === "refused") log.warn("audit", fields);
  else log.info("audit", fields);
}
