import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { sha256Hex } from "../base/digest.js";

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

/** A cache file of an output folder (`suffix`: what it holds), in the cache folder; undefined where there is none. */
export function cacheFileOf(outDir: string, suffix: string, cwd = process.cwd()): string | undefined {
  const folder = cacheFolder(cwd);
  return folder ? join(folder, `${sha256Hex(resolve(outDir)).slice(0, 16)}${suffix}`) : undefined;
}

/**
 * Rendered modules of earlier runs, by render key, kept in the cache folder (one file per output directory). Only what
 * the last run used is kept, so it never grows past one generated tree. A text the run wrote as an output file is kept
 * as that file's path and digest, and read back from the output folder while the file still holds it; other texts
 * (parts of a module) are kept whole.
 */
export class RenderCache {
  private readonly used = new Map<string, CachedText>();

  private constructor(
    private readonly file: string | undefined,
    private readonly outDir: string,
    private readonly previous: Map<string, CacheEntry>,
  ) {}

  /** Opens the cache of an output directory; an unreadable cache is an empty one. */
  static async open(outDir: string, cwd = process.cwd()): Promise<RenderCache> {
    const file = cacheFileOf(outDir, ".json", cwd);
    if (!file) return new RenderCache(undefined, resolve(outDir), new Map());
    const entries = await readFile(file, "utf8").then(
      (text) => entriesOf(JSON.parse(text)),
      () => new Map<string, CacheEntry>(),
    );
    return new RenderCache(file, resolve(outDir), entries);
  }

  /** The text kept under `key`, if any; kept for the next run too, with the output `file` this run writes it to. */
  get(key: string, file?: string): string | undefined {
    const used = this.used.get(key);
    if (used !== undefined) return used.text;
    const entry = this.previous.get(key);
    const text = entry === undefined ? undefined : "text" in entry ? entry.text : this.fileText(entry);
    if (text !== undefined) this.set(key, text, file);
    return text;
  }

  /** Keeps a rendered text; `file`: the output file (relative to the output folder) the run writes it to. */
  set(key: string, text: string, file?: string): void {
    this.used.set(key, { text, ...(file !== undefined ? { file } : {}) });
  }

  /**
   * What a save writes: the cache's file and what this run used; undefined where there is no cache folder. A text
   * the output folder holds as a file (`written`: those files' texts and digests) is kept as that file; any other,
   * whole.
   */
  contents(written?: WrittenOutput): CacheContents | undefined {
    if (this.file === undefined) return undefined;
    const entries = [...this.used].map(([key, { text, file }]): [string, CacheEntry] => {
      const sha256 = file === undefined ? undefined : written?.digests.get(file);
      // Kept as the file only where the file was written with this very text.
      return file !== undefined && sha256 !== undefined && written?.texts.get(file) === text ? [key, { file, sha256 }] : [key, { text }];
    });
    return { file: this.file, entries };
  }

  /** Writes what this run used (atomically); a failure only costs the next run its speed. */
  async save(written?: WrittenOutput): Promise<void> {
    const contents = this.contents(written);
    if (contents) await writeCacheFile(contents);
  }

  /** An output file's text, when the file still holds what the cache recorded (its digest); else undefined. */
  private fileText({ file, sha256 }: { file: string; sha256: string }): string | undefined {
    try {
      const bytes = readFileSync(join(this.outDir, file));
      return sha256Hex(bytes) === sha256 ? bytes.toString("utf8") : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A text this run rendered, and the output file it is written to, if any. */
interface CachedText {
  text: string;
  file?: string;
}

/** A cache file's entry: a text kept whole, or an output file and the digest of the text it held. */
type CacheEntry = { text: string } | { file: string; sha256: string };

/** The output files as a run wrote them: each file's text, and the SHA-256 of its bytes in hex. */
export interface WrittenOutput {
  texts: ReadonlyMap<string, string>;
  digests: ReadonlyMap<string, string>;
}

/** A render cache's file and its entries. */
export interface CacheContents {
  file: string;
  entries: [string, CacheEntry][];
}

/** The cache file's format: a version, then its entries by key. */
const FORMAT = 2;

/** Writes a render cache's file whole or not at all; a failure only costs the next run its speed. */
async function writeCacheFile({ file, entries }: CacheContents): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify({ format: FORMAT, entries: Object.fromEntries(entries) }));
    await rename(temporary, file);
  } catch {
    // The cache is an optimisation; the output is written apart from it.
  }
}

/** A relative path inside the output folder, with no way out of it. */
function isInsidePath(path: string): boolean {
  return path !== "" && !isAbsolute(path) && !path.split(/[\\/]/).includes("..");
}

/** The entries of a parsed cache file (anything not of the current format, or not of an entry's shape, is ignored). */
function entriesOf(value: unknown): Map<string, CacheEntry> {
  const entries = new Map<string, CacheEntry>();
  if (!isRecord(value) || value.format !== FORMAT || !isRecord(value.entries)) return entries;
  for (const [key, entry] of Object.entries(value.entries)) {
    if (!isRecord(entry)) continue;
    if (typeof entry.text === "string") entries.set(key, { text: entry.text });
    else if (typeof entry.file === "string" && typeof entry.sha256 === "string" && isInsidePath(entry.file))
      entries.set(key, { file: entry.file, sha256: entry.sha256 });
  }
  return entries;
}

/** Whether a value is a plain object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A cache key: what decides a rendering (tool versions and settings), then the content rendered. */
export function contentKey(settings: string, content: string): string {
  return sha256Hex(`${settings}\u0000${content}`);
}

/** The text the cache holds under `key`, else what `render` makes, kept under the key (and the output `file` it is written to) for the next run. */
export async function cachedText(
  cache: RenderCache | undefined,
  key: string,
  render: () => Promise<string>,
  file?: string,
): Promise<string> {
  const hit = cache?.get(key, file);
  if (hit !== undefined) return hit;
  const text = await render();
  cache?.set(key, text, file);
  return text;
}
