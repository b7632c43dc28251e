import type { Logger } from "./logger.js";

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

/** Writes one audit line: refusals at `warn` (an operator watches them), the rest at `info`. */
export function audit(log: Logger, entry: AuditEvent): void {
  const fields = Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
  if (entry.event === "refused" && entry.status >= 500) log.error("audit", fields);
  else if (entry.event === "refused") log.warn("audit", fields);
  else log.info("audit", fields);
}
