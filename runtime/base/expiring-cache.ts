/**
 * Values kept until they expire (`expiresAt`, ms since the epoch), at most `limit` of them: when full, the expired go
 * first, then the oldest. What sign-in derives from a token (its check, an exchanged token) is kept this way.
 */
export class ExpiringCache<V extends { expiresAt: number }> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly limit: number) {}

  /** The value under `key` while it has not expired. */
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined || value.expiresAt > Date.now()) return value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.limit) {
      const now = Date.now();
      for (const [old, kept] of this.entries) if (kept.expiresAt <= now) this.entries.delete(old);
      if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value ?? "");
    }
    this.entries.set(key, value);
  }
}
