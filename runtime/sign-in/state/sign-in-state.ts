import { ExpiringCache } from "../../base/expiring-cache.js";

/** What a refresh token presented to the token endpoint comes to: taken, a reuse (the sign-in is revoked now), revoked before. */
export type Advance = "ok" | "reused" | "revoked";

/**
 * Sign-in state that must hold wherever a request lands: codes already used, each sign-in's refresh-token generation
 * (a family), and revocations (of one sign-in, or of every sign-in of a user until a time). One replica keeps it in
 * memory; replicas behind one URL share it in PostgreSQL (`AUTH_STATE_URL`), where it also survives a restart.
 */
export interface SignInState {
  /** Where the state is kept, for logs: `memory`, or a database without its password. */
  readonly location: string;
  /** Records a code's use; false when it was used before, on any replica. */
  useCode(jti: string, expiresAt: number): Promise<boolean>;
  /** A new sign-in's family: its first refresh token is generation 0. */
  startFamily(family: string, subject: string, expiresAt: number): Promise<void>;
  /** Takes a family's refresh token of `generation`: the next one expected (ok), an earlier one (reused: revokes it), or revoked. */
  advance(family: string, generation: number, subject: string, expiresAt: number): Promise<Advance>;
  /** Whether a sign-in is revoked: its family, or its subject's sign-ins issued at or before `issuedAt` (seconds). */
  isRevoked(family: string, subject: string, issuedAt: number): Promise<boolean>;
  /** Revokes one sign-in (a client's revocation, a logout, a reuse). */
  revokeFamily(family: string, subject: string, expiresAt: number): Promise<void>;
  /** Revokes every sign-in of a subject issued until now (offboarding a colleague), on every replica. */
  revokeSubject(subject: string): Promise<void>;
  /** Throws when the state cannot be reached (for `/ready`). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Entries each in-memory table holds at most: one per sign-in or code, never one per refresh. */
const MAX_ENTRIES = 200_000;
/** How long a subject's revocation is remembered: as long as any refresh token it covers may live. */
const SUBJECT_REVOCATION_MS = 31 * 24 * 3_600_000;

/** This replica's memory: right for one replica; forgotten at a restart (the README says which store more need). */
export class MemorySignInState implements SignInState {
  readonly location = "memory";
  private readonly codes: ExpiringCache<{ expiresAt: number }>;
  private readonly families: ExpiringCache<{ next: number; revoked: boolean; expiresAt: number }>;
  private readonly subjects: ExpiringCache<{ revokedAt: number; expiresAt: number }>;

  constructor(maxEntries = MAX_ENTRIES) {
    this.codes = new ExpiringCache(maxEntries);
    this.families = new ExpiringCache(maxEntries);
    this.subjects = new ExpiringCache(maxEntries);
  }

  async useCode(jti: string, expiresAt: number): Promise<boolean> {
    if (this.codes.get(jti)) return false;
    this.codes.set(jti, { expiresAt });
    return true;
  }

  async startFamily(family: string, _subject: string, expiresAt: number): Promise<void> {
    this.families.set(family, { next: 0, revoked: false, expiresAt });
  }

  async advance(family: string, generation: number, _subject: string, expiresAt: number): Promise<Advance> {
    const held = this.families.get(family);
    if (held?.revoked) return "revoked";
    // A family this replica never saw (issued before a restart): taken as it comes.
    if (held && generation < held.next) {
      this.families.set(family, { ...held, revoked: true, expiresAt });
      return "reused";
    }
    this.families.set(family, { next: generation + 1, revoked: false, expiresAt });
    return "ok";
  }

  async isRevoked(family: string, subject: string, issuedAt: number): Promise<boolean> {
    if (this.families.get(family)?.revoked) return true;
    const revokedAt = this.subjects.get(subject)?.revokedAt;
    return revokedAt !== undefined && issuedAt * 1000 <= revokedAt;
  }

  async revokeFamily(family: string, _subject: string, expiresAt: number): Promise<void> {
    const held = this.families.get(family);
    this.families.set(family, { next: held?.next ?? 0, revoked: true, expiresAt: Math.max(expiresAt, held?.expiresAt ?? 0) });
  }

  async revokeSubject(subject: string): Promise<void> {
    const now = Date.now();
    this.subjects.set(subject, { revokedAt: now, expiresAt: now + SUBJECT_REVOCATION_MS });
  }

  async check(): Promise<void> {}

  async close(): Promise<void> {}
}
