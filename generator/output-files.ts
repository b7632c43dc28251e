import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isGeneratedText } from "../templates/header.js";

/** Folders of an output directory that the generator never reads or touches: installs, history and build output. */
const SKIPPED = new Set(["node_modules", ".git", "dist"]);

/** Every file under the output directory (relative, `/`-separated), never descending into installs or build output. */
export function outputFiles(outDir: string): string[] {
  const found: string[] = [];
  const visit = (folder: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) visit(full);
      } else if (entry.isFile()) found.push(relative(outDir, full).split(sep).join("/"));
    }
  };
  visit(outDir);
  return found;
}

/** True when the file starts with the generated header (read from its first bytes only). */
export function isGeneratedFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(400);
    const read = readSync(fd, head, 0, head.length, 0);
    return isGeneratedText(head.subarray(0, read).toString("utf8"));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Files under the directory that carry the generated header (so hand-written files are never touched). */
export function generatedFilesIn(outDir: string): string[] {
  return outputFiles(outDir).filter((path) => isGeneratedFile(join(outDir, path)));
}

/** What is at a path: nothing, a file or a folder. */
export function pathKind(path: string): "none" | "file" | "folder" {
  try {
    return statSync(path).isDirectory() ? "folder" : "file";
  } catch {
    return "none";
  }
}
