import { closest, excerpt, type Logger } from "oapi-mcp-gen-runtime";
import { errorMessage } from "../../openapi/fetch/index.js";
import type { OperationModel } from "../../openapi/model/index.js";
import {
  type ApiStore,
  type DocumentParser,
  type LoadedApi,
  loadFailure,
  readApi,
  readSource,
  type SourcePolicy,
  type SourceText,
  type StoredApi,
  ToolFailure,
} from "../documents/index.js";
import { operationBrief } from "../views/index.js";
import {
  type ApiListing,
  type Catalogue,
  type CataloguePage,
  type CatalogueQuery,
  type Loader,
  listingOf,
  mayChange,
  notYours,
  type OperationRow,
} from "./catalogue.js";
import { CatalogueIndex } from "./catalogue-index.js";

/** API names double as file names in the store, so they are kept simple. */
export const API_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A failure for a name that is not an API name, before anything is read. */
export function checkApiName(name: string): void {
  if (!API_NAME_PATTERN.test(name)) throw new ToolFailure(`invalid API name "${excerpt(name)}": use 1-64 letters, digits, ".", "_" or "-"`);
}

/** The failure for an API that is not loaded, naming the closest and what exists. */
export function notLoaded(name: string, names: readonly string[]): ToolFailure {
  const suggestion = closest(name, [...names]);
  const shown = names.length > 50 ? `${names.slice(0, 50).join(", ")}, … (${names.length} in all; see list_apis)` : names.join(", ");
  const available = names.length === 0 ? "No APIs are loaded; use load_openapi first." : `Available APIs: ${shown}`;
  return new ToolFailure(`API '${excerpt(name)}' not found.${suggestion ? ` Did you mean '${suggestion}'?` : ""} ${available}`);
}

/** The failure for a tag no loaded API has. */
export function noApiHasTag(tag: string): ToolFailure {
  return new ToolFailure(`no loaded API has the tag '${excerpt(tag)}'; list an API's tags with list_tags`);
}

/** How much the catalogue may hold. */
export interface CatalogueBudget {
  /** Documents loaded at once. @default 100 */
  maxApis: number;
  /** Total size of the loaded documents (each its text or, when larger, the document it built), in bytes. @default 268435456 */
  maxTotalBytes: number;
}

/** The failure when a document of `bytes` would go past the catalogue's budget, given what the others hold. */
export function roomFailure(budget: CatalogueBudget, others: { count: number; bytes: number }, bytes: number): Error | undefined {
  if (others.count >= budget.maxApis) {
    return new Error(`this server holds at most ${budget.maxApis} documents; ask its operator to remove some`);
  }
  const total = others.bytes + bytes;
  if (total > budget.maxTotalBytes) {
    return new Error(`loading it would make the loaded documents ${total} bytes, over this server's ${budget.maxTotalBytes}-byte limit`);
  }
  return undefined;
}

/** The bytes a loaded document counts against the budget: its text, or what it built when that is more. */
export function heldBytes(textBytes: number, builtBytes: number): number {
  return Math.max(textBytes, builtBytes);
}

/** What a catalogue-wide search shows of one operation. */
export function rowOf(api: LoadedApi, record: OperationModel, score?: number): OperationRow {
  return {
    api: api.name,
    path: record.path,
    method: record.method,
    operationId: record.operationId ?? null,
    summary: operationBrief(record),
    tags: [...record.tags],
    ...(score !== undefined ? { score } : {}),
  };
}

/** The loaded documents, held in this process and shared by every session, optionally persisted to a folder. */
export class MemoryCatalogue implements Catalogue {
  private readonly apis = new Map<string, { api: LoadedApi; bytes: number; owner?: string }>();

  constructor(
    private readonly policy: SourcePolicy,
    private readonly store: ApiStore | undefined,
    private readonly log: Logger,
    private readonly parser: DocumentParser,
    private readonly budget: CatalogueBudget,
  ) {}

  get location(): string {
    return this.store?.location ?? "memory";
  }

  ready: Promise<unknown> = Promise.resolve();

  get size(): number {
    return this.apis.size;
  }

  readonly healthy = true;

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
        const textBytes = Buffer.byteLength(stored.text);
        this.checkRoom(stored.name, textBytes);
        const { api, builtBytes } = await readApi(this.parser, stored.name, stored, stored.loadedAt);
        if (this.apis.has(stored.name)) continue; // loaded anew while this one was read
        const bytes = heldBytes(textBytes, builtBytes);
        this.checkRoom(stored.name, bytes);
        this.add(stored.name, api, bytes, stored.owner);
      } catch (error) {
        this.log.warn("stored document not restored", { name: excerpt(stored.name), error: errorMessage(error) });
      }
    }
    return this.apis.size;
  }

  async load(
    name: string,
    source: string,
    options: { trusted?: boolean; by?: Loader } = {},
  ): Promise<{ api: LoadedApi; replaced: boolean }> {
    checkApiName(name);
    const { by } = options;
    const held = this.apis.get(name);
    if (!mayChange(held, by)) throw notYours(name, "replace", by, held);
    let text: SourceText;
    let api: LoadedApi;
    let bytes: number;
    try {
      text = await readSource(source, this.policy, options);
      const textBytes = Buffer.byteLength(text.text);
      this.checkRoom(name, textBytes);
      const read = await readApi(this.parser, name, text, new Date().toISOString());
      api = read.api;
      // What the load built is what stays in memory: the budget counts it once it is known.
      bytes = heldBytes(textBytes, read.builtBytes);
      this.checkRoom(name, bytes);
    } catch (error) {
      throw loadFailure(name, errorMessage(error), this.apis.has(name));
    }
    // Checked again: another caller may have loaded it meanwhile.
    const now = this.apis.get(name);
    if (!mayChange(now, by)) throw notYours(name, "replace", by, now);
    const replaced = this.apis.has(name);
    this.add(name, api, bytes, by?.subject);
    if (this.store) {
      const stored: StoredApi = {
        name,
        source,
        origin: text.origin,
        format: text.format,
        loadedAt: api.loadedAt,
        text: text.text,
        ...(by ? { owner: by.subject } : {}),
      };
      await this.store.save(stored).catch((error: Error) => this.log.warn("could not persist document", { name, error: error.message }));
    }
    return { api, replaced };
  }

  async unload(name: string, by?: Loader): Promise<void> {
    checkApiName(name);
    const entry = this.apis.get(name);
    if (!entry) throw notLoaded(name, this.names());
    if (!mayChange(entry, by)) throw notYours(name, "remove", by, entry);
    this.apis.delete(name);
    this.catalogue?.drop(name);
    await this.store?.remove(name);
  }

  /** Fails when a document of `bytes` under `name` would exceed the number or total size of loaded documents. */
  private checkRoom(name: string, bytes: number): void {
    const others = [...this.apis].filter(([other]) => other !== name);
    const failure = roomFailure(
      this.budget,
      { count: others.length, bytes: others.reduce((sum, [, entry]) => sum + entry.bytes, 0) },
      bytes,
    );
    if (failure) throw failure;
  }

  private add(name: string, api: LoadedApi, bytes: number, owner?: string): void {
    this.apis.set(name, { api, bytes, ...(owner !== undefined ? { owner } : {}) });
    this.catalogue?.put(api);
  }

  private catalogue: CatalogueIndex | undefined;

  async find(query: CatalogueQuery): Promise<CataloguePage> {
    const tags = this.tagSpellings(query.tag);
    const keep = (api: LoadedApi, record: OperationModel) => {
      const tag = tags?.get(api);
      return (!query.method || record.method === query.method) && (!tags || (tag !== undefined && record.tags.includes(tag)));
    };
    let rows: OperationRow[];
    if (query.keyword === "") {
      rows = this.list().flatMap((api) => api.operations.filter((record) => keep(api, record)).map((record) => rowOf(api, record)));
    } else {
      // The catalogue index is built on first use, then kept up to date.
      this.catalogue ??= new CatalogueIndex(this.list());
      const hits = await this.catalogue.search(query.keyword);
      rows = hits.filter((hit) => keep(hit.api, hit.record)).map((hit) => rowOf(hit.api, hit.record, hit.score));
    }
    return { rows: rows.slice(query.offset, query.offset + query.limit), total: rows.length, apisSearched: tags?.size ?? this.apis.size };
  }

  /** Each API's own spelling of a tag, for the APIs that have it (a failure when none has); undefined without a tag. */
  private tagSpellings(tag: string | undefined): Map<LoadedApi, string> | undefined {
    if (tag === undefined) return undefined;
    const lower = tag.toLowerCase();
    const spellings = new Map<LoadedApi, string>();
    for (const api of this.list()) {
      const match = api.tags().find((entry) => entry.name.toLowerCase() === lower);
      if (match) spellings.set(api, match.name);
    }
    if (spellings.size === 0) throw noApiHasTag(tag);
    return spellings;
  }

  async get(name: string): Promise<LoadedApi> {
    const entry = this.apis.get(name);
    if (entry) return entry.api;
    throw notLoaded(name, this.names());
  }

  async listings(): Promise<ApiListing[]> {
    return this.list().map(listingOf);
  }

  async close(): Promise<void> {}

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
