import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { DocumentFormat } from "../../openapi/document/index.js";

/** One persisted document: enough to load it again without the network. */
export interface StoredApi {
  name: string;
  /** What the caller asked to load (URL or path). */
  source: string;
  /** Where it was actually read from (final URL after redirects, or a real path). */
  origin: string;
  format: DocumentFormat;
  loadedAt: string;
  text: string;
  /** Who loaded it, when callers sign in. */
  owner?: string;
}

/** Where loaded documents survive restarts. */
export interface ApiStore {
  readonly location: string;
  list(): Promise<StoredApi[]>;
  save(api: StoredApi): Promise<void>;
  /** Forgets a document; false when none was kept under the name. */
  remove(name: string): Promise<boolean>;
}

/** The default store folder: `$XDG_DATA_HOME/oapi-mcp-gen/search`, else `~/.local/share/oapi-mcp-gen/search`. */
export function defaultStorePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME?.trim() || join(homedir(), ".local", "share");
  return join(base, "oapi-mcp-gen", "search");
}

/**
 * A folder with one JSON file per API name, written atomically (temporary file, then rename). Private to the user
 * running the server: the folder 0700, its files 0600 (entries an older version wrote more openly are made so too).
 */
export class DirectoryStore implements ApiStore {
  constructor(readonly location: string) {}

  async list(): Promise<StoredApi[]> {
    const names = await readdir(this.location).catch((): string[] => []);
    const apis: StoredApi[] = [];
    if (names.length > 0) await chmod(this.location, 0o700).catch(() => {});
    for (const file of names.filter((name) => name.endsWith(".json")).sort()) {
      await chmod(join(this.location, file), 0o600).catch(() => {});
      try {
        const value = storedApiOf(JSON.parse(await readFile(join(this.location, file), "utf8")));
        if (value) apis.push(value);
      } catch {
        // A damaged entry is skipped; the others still load.
      }
    }
    return apis;
  }

  async save(api: StoredApi): Promise<void> {
    await mkdir(this.location, { recursive: true, mode: 0o700 });
    await chmod(this.location, 0o700);
    const target = join(this.location, `${api.name}.json`);
    const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temporary, JSON.stringify(api), { mode: 0o600 });
    await rename(temporary, target);
  }

  async remove(name: string): Promise<boolean> {
    const target = join(this.location, `${name}.json`);
    return rm(target).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return false;
        throw error;
      },
    );
  }
}

/** A parsed store entry, when it has every field of one (a damaged entry is skipped). */
function storedApiOf(value: unknown): StoredApi | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (key: string) => (key in value ? Object.getOwnPropertyDescriptor(value, key)?.value : undefined);
  const [name, source, origin, format, loadedAt, text, owner] = ["name", "source", "origin", "format", "loadedAt", "text", "owner"].map(
    field,
  );
  if (typeof name !== "string" || typeof text !== "string" || (format !== "json" && format !== "yaml")) return undefined;
  const string = (item: unknown) => (typeof item === "string" ? item : "");
  // Its owner is kept across restarts: without one, a document is the operator's.
  const owned = typeof owner === "string" && owner !== "" ? { owner } : {};
  return { name, source: string(source), origin: string(origin), format, loadedAt: string(loadedAt), text, ...owned };
}
