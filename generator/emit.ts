import { printStructure, type SourceFileStructure } from "ts-morph";

/** Prints ts-morph source-file structures to text (the structure printer alone: nothing is parsed back). */
export function printStructures(files: ReadonlyMap<string, SourceFileStructure>): Map<string, string> {
  const printed = new Map<string, string>();
  for (const [path, structure] of files) printed.set(path, printStructure(structure, { indentNumberOfSpaces: 2, newLine: "\n" }));
  return printed;
}
