import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "../base/json-text.js";

/** How long a confirmation asked in one round may be answered in the next (MRTR `requestState`). */
export const REQUEST_STATE_TTL_MS = 10 * 60_000;

/** What a sealed request state binds: the call it was issued for, to whom, until when. */
export interface RequestStateClaims {
  /** The tool called and a digest of its arguments. */
  call: string;
  /** Who was signed in (or "anonymous"): a state presented by another principal is refused. */
  principal: string;
  /** Expiry, in milliseconds since the epoch. */
  expires: number;
  /** Tells one sealed state from another, so each is answered once (`consume`). */
  nonce?: string;
}

/** States answered in this process and not yet expired, kept to refuse a replay; past this many, the oldest go. */
const MAX_REMEMBERED = 10_000;

/** Seals and opens `requestState` values with an HMAC: the client carries them, so they are attacker-controlled input. */
export interface RequestStateSealer {
  /** Seals the claims with a fresh nonce. */
  seal(claims: Omit<RequestStateClaims, "nonce">): string;
  /** The claims of a state this server sealed and that has not expired; undefined for anything else. */
  open(state: string, now?: number): RequestStateClaims | undefined;
  /**
   * Marks an opened state answered: true the first time, false for a replay (within this process; replicas sharing a
   * key each remember their own).
   */
  consume(claims: RequestStateClaims, now?: number): boolean;
}

/** The digest naming one call: its tool and its arguments as JSON with sorted keys. */
export function callDigest(tool: string, args: unknown): string {
  return `${tool}:${createHash("sha256").update(canonicalJson(args)).digest("base64url")}`;
}

/** Whether an opened payload has the claims' shape (it was sealed by this server, so it should). */
function isClaims(value: unknown): value is RequestStateClaims {
  if (value === null || typeof value !== "object") return false;
  const fields: { call?: unknown; principal?: unknown; expires?: unknown; nonce?: unknown } = value;
  const { call, principal, expires, nonce } = fields;
  return (
    typeof call === "string" &&
    typeof principal === "string" &&
    typeof expires === "number" &&
    (nonce === undefined || typeof nonce === "string")
  );
}

/**
 * A sealer keyed by `key` (MCP_STATE_KEY, shared by replicas so any of them opens what another sealed), or by a random
 * key of this process when none is given.
 */
export function requestStateSealer(key: string | undefined): RequestStateSealer {
  const secret = key ? Buffer.from(key, "utf8") : randomBytes(32);
  const mac = (payload: string) => createHmac("sha256", secret).update(payload).digest();
  const answered = new Map<string, number>();
  return {
    seal(claims) {
      const sealed: RequestStateClaims = { ...claims, nonce: randomBytes(12).toString("base64url") };
      const payload = Buffer.from(JSON.stringify(sealed), "utf8").toString("base64url");
      return `${payload}.${mac(payload).toString("base64url")}`;
    },
    open(state, now = Date.now()) {
      if (state.length > 4096) return undefined;
      const [payload, signature, ...rest] = state.split(".");
      if (!payload || !signature || rest.length > 0) return undefined;
      const given = Buffer.from(signature, "base64url");
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
        return isClaims(claims) && claims.expires > now ? claims : undefined;
      } catch {
        return undefined;
      }
    },
    consume(claims, now = Date.now()) {
      if (claims.nonce === undefined || answered.has(claims.nonce)) return false;
      // Oldest first (every state lives as long): drop the expired ones, and the oldest past the limit.
      for (const [nonce, expires] of answered) {
        if (expires > now && answered.size < MAX_REMEMBERED) break;
        answered.delete(nonce);
      }
      answered.set(claims.nonce, claims.expires);
      return true;
    },
  };
}
