import type { Logger } from "oapi-mcp-gen-runtime";
import { normalizeDocument } from "../openapi/normalize.js";
import { closest } from "../openapi/suggest.js";
import { parseSource, readSource, type SourcePolicy, type SourceText } from "./load-source.js";
import { LoadedApi } from "./loaded-api.js";
import type { ApiStore, StoredApi } from "./store.js";

/** API names double as file names in the store, so they are kept simple. */
export const API_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A failure a tool reports to its caller as `{"error": true, "message": …}`. */
export class ToolFailure extends Error {
  override name = "ToolFailure";
}

/** The loaded documents, shared by every session, optionally persisted. */
export class ApiCatalog {
  private readonly apis = new Map<string, LoadedApi>();

  constructor(
    private readonly policy: SourcePolicy,
    private readonly store: ApiStore | undefined,
    private readonly log: Logger,
  ) {}

  /** Loads every stored document; one that no longer loads is logged and skipped. */
  async restore(): Promise<number> {
    if (!this.store) return 0;
    for (const stored of await this.store.list()) {
      try {
        const text: SourceText = { text: stored.text, format: stored.format, origin: stored.origin };
        this.apis.set(stored.name, await buildApi(stored.name, text, stored.loadedAt));
      } catch (error) {
        this.log.warn("stored document no longer loads", { name: stored.name, error: (error as Error).message });
      }
    }
    return this.apis.size;
  }

  /** Loads (or replaces) a document; a failed load keeps what was there. */
  async load(name: string, source: string, options: { trusted?: boolean } = {}): Promise<{ api: LoadedApi; replaced: boolean }> {
    if (!API_NAME_PATTERN.test(name)) throw new ToolFailure(`invalid API name "${name}": use 1-64 letters, digits, ".", "_" or "-"`);
    let text: SourceText;
    let api: LoadedApi;
    try {
      text = await readSource(source, this.policy, options);
      api = await buildApi(name, text, new Date().toISOString());
    } catch (error) {
      const kept = this.apis.has(name) ? ` The previously loaded '${name}' is kept.` : "";
      throw new ToolFailure(`Failed to load '${name}': ${(error as Error).message}${kept}`);
    }
    const replaced = this.apis.has(name);
    this.apis.set(name, api);
    if (this.store) {
      const stored: StoredApi = { name, source, origin: text.origin, format: text.format, loadedAt: api.loadedAt, text: text.text };
      await this.store.save(stored).catch((error: Error) => this.log.warn("could not persist document", { name, error: error.message }));
    }
    return { api, replaced };
  }

  /** A loaded API by name, or a failure naming what exists. */
  get(name: string): LoadedApi {
    const api = this.apis.get(name);
    if (api) return api;
    const names = this.names();
    const suggestion = closest(name, names);
    const available = names.length === 0 ? "No APIs are loaded; use load_openapi first." : `Available APIs: ${names.join(", ")}`;
    throw new ToolFailure(`API '${name}' not found.${suggestion ? ` Did you mean '${suggestion}'?` : ""} ${available}`);
  }

  /** Every loaded API, by name. */
  list(): LoadedApi[] {
    return this.names().map((name) => this.apis.get(name) as LoadedApi);
  }

  private names(): string[] {
    return [...this.apis.keys()].sort();
  }
}

async function buildApi(name: string, source: SourceText, loadedAt: string): Promise<LoadedApi> {
  const { document, sourceVersion, warnings } = await normalizeDocument(parseSource(source), source.origin);
  return new LoadedApi(name, document, sourceVersion, source.origin, loadedAt, warnings);
}
