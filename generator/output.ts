import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { isGeneratedText } from "../templates/header.js";
import { codePointCompare } from "./json-schema.js";

/** What `--check` found, or what a write changed. */
export interface OutputReport {
  /** Files whose content differs or that do not exist yet. */
  changed: string[];
  /** Generated files on disk that the new output no longer has. */
  stale: string[];
}

/** Compares the output with the directory: changed files and stale generated files. */
export async function compareOutput(outDir: string, files: ReadonlyMap<string, string>): Promise<OutputReport> {
  const changed: string[] = [];
  for (const [path, content] of files) {
    const existing = await readFile(join(outDir, path), "utf8").catch(() => undefined);
    if (existing !== content) changed.push(path);
  }
  const stale = (await generatedFilesIn(outDir)).filter((path) => !files.has(path));
  return { changed: changed.sort(codePointCompare), stale: stale.sort(codePointCompare) };
}

/** Writes only the files that changed and removes stale generated files; other files are left alone. */
export async function writeOutput(outDir: string, files: ReadonlyMap<string, string>): Promise<OutputReport> {
  const report = await compareOutput(outDir, files);
  for (const path of report.changed) {
    const target = join(outDir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, files.get(path) as string);
  }
  for (const path of report.stale) await rm(join(outDir, path));
  return report;
}

/** Files under the directory that start with the generated header (so hand-written files are never touched). */
export async function generatedFilesIn(outDir: string): Promise<string[]> {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const head = await readFile(full, "utf8").then(
      (text) => text.slice(0, 400),
      () => "",
    );
    if (isGeneratedText(head)) found.push(relative(outDir, full).split(sep).join("/"));
  }
  return found;
}
