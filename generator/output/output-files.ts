import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { isGeneratedText } from "../../templates/header.js";
import { VENDOR_FOLDER } from "./vendor-runtime.js";

/**
 * The folders of a generated tree: its root, its tool modules, its deploy files and a vendored runtime (whose built
 * modules lie in folders of their own). Nothing else is ever looked at.
 */
const GENERATED_FOLDERS: readonly { folder: string; recursive: boolean }[] = [
  { folder: "", recursive: false },
  { folder: "tools", recursive: false },
  { folder: "deploy", recursive: false },
  { folder: VENDOR_FOLDER, recursive: false },
  { folder: `${VENDOR_FOLDER}/dist`, recursive: true },
];

/**
 * The files where a generated tree keeps its own (relative, `/`-separated): the output directory itself, `tools/`,
 * `deploy/` and a vendored runtime. Other folders (another server's tree, installs, build output) are never read or touched.
 */
export function outputFiles(outDir: string): string[] {
  const found: string[] = [];
  for (const { folder, recursive } of GENERATED_FOLDERS) {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(join(outDir, folder), { withFileTypes: true, recursive });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = relative(outDir, join(entry.parentPath, entry.name)).split(sep).join("/");
      found.push(path);
    }
  }
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
