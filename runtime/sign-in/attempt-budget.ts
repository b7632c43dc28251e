/**
 * A budget of attempts per source (a client's address group): `burst` at once, then `perSecond`, each source's kept
 * apart so that one source spending its own never starves another. At most `maxSources` are tracked; past that the
 * least recently seen is forgotten (it starts again with a full budget, which only ever lets more through).
 */
export class AttemptBudget {
  private readonly sources = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private readonly maxSources = 10_000,
  ) {}

  /** Spends one attempt of `source`'s; false (and nothing spent) when it has none left. */
  take(source: string, now = Date.now()): boolean {
    const held = this.sources.get(source);
    const tokens = held ? Math.min(this.burst, held.tokens + ((now - held.at) / 1000) * this.perSecond) : this.burst;
    this.sources.delete(source);
    if (this.sources.size >= this.maxSources) this.sources.delete(this.sources.keys().next().value ?? "");
    this.sources.set(source, { tokens: tokens >= 1 ? tokens - 1 : tokens, at: now });
    return tokens >= 1;
  }

  /** Seconds until `source` has an attempt again (at least 1). */
  retryAfter(source: string, now = Date.now()): number {
    const held = this.sources.get(source);
    if (!held) return 1;
    const tokens = held.tokens + ((now - held.at) / 1000) * this.perSecond;
    return Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
  }
}
