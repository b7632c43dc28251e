import { createRequire } from "node:module";
import type { SourceFileStructure } from "ts-morph";

// Required, not imported: ts-morph and TypeScript are CommonJS, and an ESM import of them first scans their 9 MB of
// source for export names.
const { printStructure } = createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph");

/** Prints ts-morph source-file structures to text (the structure printer alone: nothing is parsed back). */
export function printStructures(files: ReadonlyMap<string, SourceFileStructure>): Map<string, string> {
  const printed = new Map<string, string>();
  for (const [path, structure] of files) printed.set(path, printStructure(structure, { indentNumberOfSpaces: 2, newLine: "\n" }));
  return printed;
}
