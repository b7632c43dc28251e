import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { codePointCompare } from "../base/code-point-order.js";
import { sha256Hex } from "../base/digest.js";
import { UserError } from "../base/errors.js";
import { generatedFilesIn, isGeneratedFile, pathKind } from "./output-files.js";

/** What `--check` found, or what a write changed. */
export interface OutputReport {
  /** Files whose content differs from the output. */
  changed: string[];
  /** Files the output adds. */
  added: string[];
  /** Generated files on disk that the new output no longer has. */
  stale: string[];
}

/**
 * Refuses an output folder that is not the generator's to fill: a file, a folder inside `node_modules`, or a
 * project root (a `package.json` or `node_modules` that the generator did not write).
 */
export function checkOutputFolder(outDir: string): void {
  const kind = pathKind(outDir);
  if (kind === "file") throw new UserError(`--out ${outDir}: is a file; give a folder (e.g. --out generated)`);
  if (resolve(outDir).split(sep).includes("node_modules"))
    throw new UserError(`--out ${outDir}: is inside node_modules, which belongs to npm; give a folder of your own (e.g. --out generated)`);
  if (kind === "none") return;
  const manifest = join(outDir, "package.json");
  const ownPackage = pathKind(manifest) === "file" && isGeneratedFile(manifest);
  if (pathKind(manifest) === "file" && !ownPackage)
    throw new UserError(
      `--out ${outDir}: holds a package.json the generator did not write (a project root?); give a folder of its own (e.g. --out generated)`,
    );
  if (!ownPackage && (pathKind(join(outDir, "node_modules")) === "folder" || pathKind(join(outDir, ".git")) !== "none"))
    throw new UserError(`--out ${outDir}: holds node_modules or .git (a project root?); give a folder of its own (e.g. --out generated)`);
  const target = resolve(outDir);
  const here = resolve(process.cwd());
  if (!ownPackage && (here === target || here.startsWith(target.endsWith(sep) ? target : `${target}${sep}`)))
    throw new UserError(`--out ${outDir}: is the working folder or one of its parents; give a folder of its own (e.g. --out generated)`);
}

/** A generated file's content: its text, or the bytes it is written as (encoded once for writing and recording). */
export type FileContent = string | Uint8Array;

/** The files' texts as the bytes they are written as. */
export function encodedFiles(files: ReadonlyMap<string, string>): Map<string, Uint8Array> {
  return new Map([...files].map(([path, text]) => [path, Buffer.from(text)]));
}

/** The SHA-256 of each file's bytes, in hex (the run manifest and the render cache record them). */
export function fileDigests(files: ReadonlyMap<string, FileContent>): Map<string, string> {
  return new Map([...files].map(([path, content]) => [path, sha256Hex(content)]));
}

/** Compares the output with the directory: changed, added and stale generated files. */
export async function compareOutput(outDir: string, files: ReadonlyMap<string, FileContent>): Promise<OutputReport> {
  const changed: string[] = [];
  const added: string[] = [];
  // Synchronous reads and writes: for a thousand small files they take a fraction of the time of awaited ones.
  for (const [path, content] of files) {
    const existing = readExisting(join(outDir, path));
    if (existing === undefined) added.push(path);
    else if (!existing.equals(typeof content === "string" ? Buffer.from(content) : content)) changed.push(path);
  }
  const stale = generatedFilesIn(outDir).filter((path) => !files.has(path));
  return { changed: changed.sort(codePointCompare), added: added.sort(codePointCompare), stale: stale.sort(codePointCompare) };
}

/** Files at paths the output needs that the generator did not write (they would be overwritten). */
export function foreignFiles(outDir: string, report: OutputReport): string[] {
  return report.changed.filter((path) => !isGeneratedFile(join(outDir, path)));
}

/** A file's bytes, or undefined when there is none to read. */
function readExisting(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Removes a folder when it exists and holds nothing. */
function removeIfEmpty(folder: string): void {
  try {
    if (readdirSync(folder).length === 0) rmdirSync(folder);
  } catch {
    // Absent, or not ours to read: left as it is.
  }
}

/** Every folder above the removed files, inside the output folder, deepest first. */
function emptiedFolders(removed: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const path of removed)
    for (let folder = dirname(path); folder !== "." && folder !== "/"; folder = dirname(folder)) folders.add(folder);
  return [...folders].sort((a, b) => b.split("/").length - a.split("/").length);
}

/**
 * Writes only the files that changed and removes stale generated files. A file without the generated header at a
 * path the output needs is an error naming it, and then nothing is written.
 */
export async function writeOutput(outDir: string, files: ReadonlyMap<string, FileContent>): Promise<OutputReport> {
  checkOutputFolder(outDir);
  const report = await compareOutput(outDir, files);
  const foreign = foreignFiles(outDir, report);
  if (foreign.length > 0) {
    throw new UserError(
      foreign.map(
        (path) => `${join(outDir, path)}: not written by oapi-mcp-gen; move it away or choose another --out (nothing was written)`,
      ),
    );
  }
  const writes = [...report.changed, ...report.added];
  for (const folder of new Set(writes.map((path) => dirname(join(outDir, path))))) mkdirSync(folder, { recursive: true });
  for (const path of writes) writeFileSync(join(outDir, path), files.get(path) ?? "");
  for (const path of report.stale) rmSync(join(outDir, path));
  // A folder emptied by the removals (a vendored runtime given up, say) goes too, deepest first; anything else stays.
  for (const folder of emptiedFolders(report.stale)) removeIfEmpty(join(outDir, folder));
  return report;
}
