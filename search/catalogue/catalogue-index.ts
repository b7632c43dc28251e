import { OperationSearchIndex } from "oapi-mcp-gen-runtime/operation-index";
import type { OperationModel } from "../../openapi/model/index.js";
import type { LoadedApi } from "../documents/index.js";

/** Operations indexed between two yields to the event loop. */
const SLICE = 1000;

/** One operation found across the catalogue, with the API it belongs to. */
export interface CatalogueHit {
  api: LoadedApi;
  record: OperationModel;
  score: number;
}

/**
 * One search index over the operations of every loaded API, kept up to date as documents load and are replaced: a
 * query across the catalogue is one search, not one per document. Each API owns a range of ids.
 */
export class CatalogueIndex {
  private index = new OperationSearchIndex([]);
  private readonly ranges = new Map<string, { api: LoadedApi; base: number }>();
  /** The API owning each id; a replaced API's ids are not reused until the index is rebuilt. */
  private owners: (LoadedApi | undefined)[] = [];
  /** Operations of the APIs indexed now. */
  private live = 0;

  /** Indexing still to do, in order; a search waits for it. */
  private pending: Promise<void> = Promise.resolve();

  /** `slack`: how many retired ids (of replaced documents) are kept before the index is rebuilt without them. */
  constructor(
    apis: readonly LoadedApi[],
    private readonly slack = 100_000,
  ) {
    for (const api of apis) this.put(api);
  }

  /**
   * Adds an API, replacing what was indexed under its name. Indexing runs a slice at a time, in the order of the
   * calls, so that thousands of operations never hold up other requests.
   */
  put(api: LoadedApi): void {
    // A document the index cannot take stays searchable on its own (search_endpoints with its name); the others go on.
    this.pending = this.pending.then(() => this.indexed(api)).catch(() => this.drop(api.name));
  }

  private async indexed(api: LoadedApi): Promise<void> {
    this.drop(api.name);
    // Reloading the same documents again and again must not grow the index (nor its id table) without bound.
    if (this.owners.length - this.live > this.slack) await this.rebuild();
    await this.append(api);
  }

  /** Indexes every current API afresh, so retired ids and their words are gone. */
  private async rebuild(): Promise<void> {
    const apis = [...this.ranges.values()].map((range) => range.api);
    this.index = new OperationSearchIndex([]);
    this.owners = [];
    this.ranges.clear();
    this.live = 0;
    for (const api of apis) await this.append(api);
  }

  private async append(api: LoadedApi): Promise<void> {
    const base = this.owners.length;
    this.owners.length += api.operations.length;
    this.owners.fill(api, base);
    this.ranges.set(api.name, { api, base });
    this.live += api.operations.length;
    const searchable = api.searchable(base);
    for (let start = 0; start < searchable.length; start += SLICE) {
      this.index.add(searchable.slice(start, start + SLICE));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Removes the API indexed under a name. */
  drop(name: string): void {
    const range = this.ranges.get(name);
    if (!range) return;
    const ids = range.api.operations.map((operation) => range.base + operation.index);
    this.index.remove(ids);
    this.owners.fill(undefined, range.base, range.base + range.api.operations.length);
    this.ranges.delete(name);
    this.live -= range.api.operations.length;
  }

  /** How many ids the index has handed out, retired ones included (for tests of its bound). */
  get idsInUse(): number {
    return this.owners.length;
  }

  /** Operations of every API matching a query, best first, once the indexing asked for so far is done. */
  async search(query: string): Promise<CatalogueHit[]> {
    await this.pending;
    return this.index.search(query).flatMap(({ id, score }) => {
      const api = this.owners[id];
      const range = api && this.ranges.get(api.name);
      const record = range?.api === api ? api?.operations[id - (range?.base ?? 0)] : undefined;
      return api && record ? [{ api, record, score }] : [];
    });
  }
}
