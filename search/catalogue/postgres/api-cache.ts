import type { LoadedApi } from "../../documents/index.js";

interface Entry {
  generation: string;
  bytes: number;
  api: Promise<LoadedApi>;
}

/**
 * The documents a replica has read from the database lately, by name and generation, least recently used first out:
 * the only per-document state a replica holds, bounded in bytes of document text.
 */
export class ApiCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The API of this generation, read with `read` when it is not held (concurrent asks share one read). */
  get(name: string, generation: string, bytes: number, read: () => Promise<LoadedApi>): Promise<LoadedApi> {
    const held = this.entries.get(name);
    if (held?.generation === generation) {
      this.entries.delete(name);
      this.entries.set(name, held);
      return held.api;
    }
    const api = read();
    this.put(name, generation, bytes, api);
    // A failed read is not kept: the next ask reads again.
    api.catch(() => {
      if (this.entries.get(name)?.api === api) this.forget(name);
    });
    return api;
  }

  /** Holds an API just read (or loaded here), evicting the least recently used past the budget. */
  put(name: string, generation: string, bytes: number, api: Promise<LoadedApi>): void {
    this.forget(name);
    this.entries.set(name, { generation, bytes, api });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes || oldest === name) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  /** Drops what is held under a name. */
  forget(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    this.bytes -= entry.bytes;
  }

  /** How many documents are held, and their bytes (for tests of the bound). */
  get held(): { count: number; bytes: number } {
    return { count: this.entries.size, bytes: this.bytes };
  }
}
