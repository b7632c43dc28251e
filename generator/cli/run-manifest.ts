import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isGeneratedText } from "../../templates/header.js";
import { sha256Hex } from "../base/digest.js";
import { cacheFileOf } from "../cache/render-cache.js";
import { outputFiles } from "../output/output-files.js";

/**
 * The folders whose code decides the output (the generator's own fingerprint), the runtime's among them: its
 * tools/list form decides the sizes the generated README reports.
 */
const CODE_FOLDERS = [
  ...["generator", "templates", "openapi"].map((folder) => fileURLToPath(new URL(`../../${folder}/`, import.meta.url))),
  fileURLToPath(new URL(".", import.meta.resolve("oapi-mcp-gen-runtime"))),
];

/** What the last run produced: the key of its inputs and the hash of each file it left. */
interface Manifest {
  inputKey: string;
  files: Record<string, string>;
}

/**
 * Lets a run in which nothing changed finish without generating: the key covers the generator's code and package
 * versions, the document's bytes and the config; the file hashes prove the output was not touched since.
 */
export class RunManifest {
  private constructor(
    private readonly file: string | undefined,
    readonly inputKey: string,
  ) {}

  /** The manifest slot of an output directory, in the cache folder (unused when there is none: see cacheFolder). */
  static async open(
    outDir: string,
    documentBytes: Buffer,
    config: unknown,
    cwd = process.cwd(),
    code = CODE_FOLDERS,
  ): Promise<RunManifest> {
    const hash = createHash("sha256");
    for (const folder of code) {
      // Every file below too: the generator's code lives in subfolders (model/, schema/, …).
      // Synchronous reads, as in isCurrent: a few hundred small files.
      for (const name of (await readdir(folder, { recursive: true }).catch((): string[] => [])).sort()) {
        if (/\.(js|ts|json)$/.test(name) && !name.endsWith(".d.ts")) hash.update(name).update(readFileSync(join(folder, name)));
      }
    }
    hash.update(JSON.stringify(config)).update("\u0000").update(documentBytes);
    return new RunManifest(cacheFileOf(outDir, ".manifest.json", cwd), hash.digest("hex"));
  }

  /** True when the last run had these inputs and every file it wrote is still there, unchanged, with no others. */
  async isCurrent(outDir: string): Promise<boolean> {
    if (!this.file) return false;
    const manifest = await readFile(this.file, "utf8").then(
      (text) => manifestOf(JSON.parse(text)),
      () => undefined,
    );
    if (manifest?.inputKey !== this.inputKey) return false;
    // Synchronous reads: for a thousand small files they take a tenth of the time of awaited ones.
    let generated = 0;
    for (const path of outputFiles(outDir)) {
      const bytes = readFileSync(join(outDir, path));
      if (!isGeneratedText(bytes.subarray(0, 400).toString("utf8"))) continue;
      generated++;
      if (manifest.files[path] !== sha256Hex(bytes)) return false;
    }
    return generated === Object.keys(manifest.files).length;
  }

  /** Records the output of a successful run: the SHA-256 of each file's bytes. */
  async record(digests: ReadonlyMap<string, string>): Promise<void> {
    if (!this.file) return;
    const manifest: Manifest = { inputKey: this.inputKey, files: Object.fromEntries(digests) };
    try {
      await mkdir(dirname(this.file), { recursive: true });
      await writeFile(`${this.file}.tmp`, JSON.stringify(manifest));
      await rename(`${this.file}.tmp`, this.file);
    } catch {
      // Only the next run's speed depends on it.
    }
  }
}

/** A parsed manifest file, when it has the manifest's shape (anything else counts as no manifest). */
function manifestOf(value: unknown): Manifest | undefined {
  if (typeof value !== "object" || value === null || !("inputKey" in value) || !("files" in value)) return undefined;
  const { inputKey, files } = value;
  if (typeof inputKey !== "string" || typeof files !== "object" || files === null) return undefined;
  const hashes: Record<string, string> = {};
  for (const [path, hash] of Object.entries(files)) if (typeof hash === "string") hashes[path] = hash;
  return { inputKey, files: hashes };
}
