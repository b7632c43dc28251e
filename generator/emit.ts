import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFileStructure } from "ts-morph";

/** Prints ts-morph source-file structures to text with pinned settings (no file system is touched). */
export function printStructures(files: ReadonlyMap<string, SourceFileStructure>): Map<string, string> {
  const project = new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Double,
      useTrailingCommas: true,
    },
  });
  const printed = new Map<string, string>();
  for (const [path, structure] of files) {
    printed.set(path, project.createSourceFile(`/${path}`, structure).getFullText());
  }
  return printed;
}
