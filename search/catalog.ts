import type { Logger } from "oapi-mcp-gen-runtime";
import { closest, excerpt } from "oapi-mcp-gen-runtime";
import { buildApiModelInSlices } from "../openapi/build-model.js";
import { errorMessage } from "../openapi/error-detail.js";
import { type CatalogueHit, CatalogueIndex } from "./catalogue-index.js";
import type { DocumentParser } from "./document-parser.js";
import { readSource, type SourcePolicy, type SourceText } from "./load-source.js";
import { LoadedApi } from "./loaded-api.js";
import type { ApiStore, StoredApi } from "./store.js";

/** API names double as file names in the store, so they are kept simple. */
export const API_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A failure a tool reports to its caller as `{"error": true, "message": …}`. */
export class ToolFailure extends Error {
  override name = "ToolFailure";
}

/** How much the catalog may hold. */
export interface CatalogBudget {
  /** Documents loaded at once. @default 100 */
  maxApis: number;
  /** Total size of the loaded documents' text, in bytes. @default 268435456 */
  maxTotalBytes: number;
}

/** The loaded documents, shared by every session, optionally persisted. */
export class ApiCatalog {
  private readonly apis = new Map<string, { api: LoadedApi; bytes: number }>();

  constructor(
    private readonly policy: SourcePolicy,
    private readonly store: ApiStore | undefined,
    private readonly log: Logger,
    private readonly parser: DocumentParser,
    private readonly budget: CatalogBudget,
  ) {}

  /** Settles once stored documents are restored; tool calls wait for it, `/health` does not. */
  ready: Promise<unknown> = Promise.resolve();

  /** Starts restoring stored documents in the background (see `ready`); resolves with how many were restored. */
  startRestore(): Promise<number> {
    const restoring = this.restore();
    this.ready = restoring;
    return restoring;
  }

  /** Loads every stored document that is still valid and fits; the rest is logged and skipped, never fatal. */
  private async restore(): Promise<number> {
    if (!this.store) return 0;
    for (const stored of await this.store.list()) {
      try {
        if (!API_NAME_PATTERN.test(stored.name)) throw new Error("not a valid API name");
        if (this.apis.has(stored.name)) continue; // loaded anew (--load) while restoring
        this.checkRoom(stored.name, Buffer.byteLength(stored.text));
        const api = await this.read(stored.name, stored, stored.loadedAt);
        if (this.apis.has(stored.name)) continue; // loaded anew while this one was read
        this.add(stored.name, api, Buffer.byteLength(stored.text));
      } catch (error) {
        this.log.warn("stored document not restored", { name: excerpt(stored.name), error: errorMessage(error) });
      }
    }
    return this.apis.size;
  }

  /** Loads (or replaces) a document; a failed load keeps what was there. */
  async load(name: string, source: string, options: { trusted?: boolean } = {}): Promise<{ api: LoadedApi; replaced: boolean }> {
    if (!API_NAME_PATTERN.test(name))
      throw new ToolFailure(`invalid API name "${excerpt(name)}": use 1-64 letters, digits, ".", "_" or "-"`);
    let text: SourceText;
    let api: LoadedApi;
    try {
      text = await readSource(source, this.policy, options);
      this.checkRoom(name, Buffer.byteLength(text.text));
      api = await this.read(name, text, new Date().toISOString());
    } catch (error) {
      const kept = this.apis.has(name) ? ` The previously loaded '${name}' is kept.` : "";
      throw new ToolFailure(`Failed to load '${name}': ${errorMessage(error)}${kept}`);
    }
    const replaced = this.apis.has(name);
    this.add(name, api, Buffer.byteLength(text.text));
    if (this.store) {
      const stored: StoredApi = { name, source, origin: text.origin, format: text.format, loadedAt: api.loadedAt, text: text.text };
      await this.store.save(stored).catch((error: Error) => this.log.warn("could not persist document", { name, error: error.message }));
    }
    return { api, replaced };
  }

  /**
   * Parses a document's text (in the worker) and reads its model a slice at a time, so a document of thousands of
   * operations does not hold up other requests.
   */
  private async read(name: string, source: Pick<SourceText, "text" | "format" | "origin">, loadedAt: string): Promise<LoadedApi> {
    const parsed = await this.parser.parse(source.text, source.format, `'${name}'`);
    const model = await buildApiModelInSlices(parsed.document);
    return new LoadedApi(name, parsed.document, parsed.sourceVersion, source.origin, loadedAt, parsed.warnings, model);
  }

  /** Fails when a document of `bytes` under `name` would exceed the number or total size of loaded documents. */
  private checkRoom(name: string, bytes: number): void {
    const others = [...this.apis].filter(([other]) => other !== name);
    if (others.length >= this.budget.maxApis) {
      throw new Error(`this server holds at most ${this.budget.maxApis} documents; ask its operator to remove some`);
    }
    const total = others.reduce((sum, [, entry]) => sum + entry.bytes, 0) + bytes;
    if (total > this.budget.maxTotalBytes) {
      throw new Error(
        `loading it would make the loaded documents ${total} bytes, over this server's ${this.budget.maxTotalBytes}-byte limit`,
      );
    }
  }

  private add(name: string, api: LoadedApi, bytes: number): void {
    this.apis.set(name, { api, bytes });
    this.catalogue?.put(api);
  }

  private catalogue: CatalogueIndex | undefined;

  /** Searches every loaded API at once (the catalogue index is built on first use, then kept up to date). */
  searchAll(query: string): Promise<CatalogueHit[]> {
    this.catalogue ??= new CatalogueIndex(this.list());
    return this.catalogue.search(query);
  }

  /** A loaded API by name, or a failure naming what exists. */
  get(name: string): LoadedApi {
    const entry = this.apis.get(name);
    if (entry) return entry.api;
    const names = this.names();
    const suggestion = closest(name, names);
    const available = names.length === 0 ? "No APIs are loaded; use load_openapi first." : `Available APIs: ${names.join(", ")}`;
    throw new ToolFailure(`API '${excerpt(name)}' not found.${suggestion ? ` Did you mean '${suggestion}'?` : ""} ${available}`);
  }

  /** Every loaded API, by name. */
  list(): LoadedApi[] {
    return this.names().flatMap((name) => {
      const entry = this.apis.get(name);
      return entry ? [entry.api] : [];
    });
  }

  private names(): string[] {
    return [...this.apis.keys()].sort();
  }
}
