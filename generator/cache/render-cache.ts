import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { threadId } from "node:worker_threads";

/**
 * The generator's cache folder: `node_modules/.cache/oapi-mcp-gen` in the nearest folder, from `cwd` up, that has
 * `node_modules` (a monorepo package run from its own folder uses the root's); undefined when there is none.
 */
export function cacheFolder(cwd = process.cwd()): string | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    if (existsSync(join(folder, "node_modules"))) return join(folder, "node_modules", ".cache", "oapi-mcp-gen");
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * Rendered modules of earlier runs, by render key, kept in the cache folder (one file per output directory). Only what
 * the last run used is kept, so it never grows past one generated tree.
 */
export class RenderCache {
  private readonly used = new Map<string, string>();

  private constructor(
    private readonly file: string | undefined,
    private readonly previous: Map<string, string>,
  ) {}

  /** Opens the cache of an output directory; an unreadable cache is an empty one. */
  static async open(outDir: string, cwd = process.cwd()): Promise<RenderCache> {
    const folder = cacheFolder(cwd);
    if (!folder) return new RenderCache(undefined, new Map());
    const id = createHash("sha256").update(resolve(outDir)).digest("hex").slice(0, 16);
    const file = join(folder, `${id}.json`);
    const entries = await readFile(file, "utf8").then(
      (text) => textsOf(JSON.parse(text)),
      () => new Map<string, string>(),
    );
    return new RenderCache(file, entries);
  }

  get(key: string): string | undefined {
    const hit = this.previous.get(key) ?? this.used.get(key);
    if (hit !== undefined) this.used.set(key, hit);
    return hit;
  }

  set(key: string, text: string): void {
    this.used.set(key, text);
  }

  /** What a save writes: the cache's file and what this run used; undefined where there is no cache folder. */
  contents(): CacheContents | undefined {
    return this.file === undefined ? undefined : { file: this.file, entries: [...this.used] };
  }

  /** Writes what this run used (atomically); a failure only costs the next run its speed. */
  async save(): Promise<void> {
    const contents = this.contents();
    if (contents) await writeCacheFile(contents);
  }
}

/** A render cache's file and its entries (key, text), as plain data another thread can write. */
export interface CacheContents {
  file: string;
  entries: [string, string][];
}

/** Writes a render cache's file whole or not at all; a failure only costs the next run its speed. */
export async function writeCacheFile({ file, entries }: CacheContents): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${threadId}.tmp`;
    await writeFile(temporary, JSON.stringify(Object.fromEntries(entries)));
    await rename(temporary, file);
  } catch {
    // The cache is an optimisation; the output is written apart from it.
  }
}

/** The cached texts of a parsed cache file (entries that are not text are ignored). */
function textsOf(value: unknown): Map<string, string> {
  const texts = new Map<string, string>();
  if (typeof value !== "object" || value === null) return texts;
  for (const [key, text] of Object.entries(value)) if (typeof text === "string") texts.set(key, text);
  return texts;
}

/** A cache key: what decides a rendering (tool versions and settings), then the content rendered. */
export function contentKey(settings: string, content: string): string {
  return createHash("sha256").update(`${settings}\u0000${content}`).digest("hex");
}

/** The text the cache holds under `key`, else what `render` makes, kept under the key for the next run. */
export async function cachedText(cache: RenderCache | undefined, key: string, render: () => Promise<string>): Promise<string> {
  const hit = cache?.get(key);
  if (hit !== undefined) return hit;
  const text = await render();
  cache?.set(key, text);
  return text;
}
