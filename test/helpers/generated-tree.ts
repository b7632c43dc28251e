import { writeFile } from "node:fs/promises";
import { join, sep } from "node:path";
import ts from "typescript";
import { writeOutput } from "../../generator/output/index.js";

/**
 * Files every check reads and none changes during a run (TypeScript's libraries, installed packages, the runtime's
 * built declarations), parsed once per test process: a check then parses only the tree it was given.
 */
const unchanging = new Map<string, ts.SourceFile>();

/** Whether a file is one no test writes: under a node_modules folder or the runtime's build. */
function isUnchanging(fileName: string): boolean {
  return fileName.includes(`${sep}node_modules${sep}`) || fileName.includes(`${sep}runtime${sep}dist${sep}`);
}

/** A compiler host as tsc's own, reading unchanging files from the shared cache. */
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, version, onError, shouldCreate) => {
    if (!isUnchanging(fileName)) return read(fileName, version, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(version)}`;
    const known = unchanging.get(key);
    if (known) return known;
    const parsed = read(fileName, version, onError, shouldCreate);
    if (parsed) unchanging.set(key, parsed);
    return parsed;
  };
  return host;
}

/**
 * Writes generated files to `<folder>/generated` (a folder two levels under the repository) and type-checks them
 * under the project's strict settings against the runtime's built declarations, as a user's build of the generated
 * package does (`npm test` builds them first; the runtime's own sources are checked by the type-checking test): the
 * tsconfig.json it writes is read as tsc reads it, and compiled with the repository's TypeScript in this process. It
 * emits declarations as the generated tree's own build does (`declaration: true`: a type too long to write, TS7056,
 * fails only then) and discards them; returns tsc's output (empty when clean).
 */
export async function writeAndTypecheck(folder: string, files: Parameters<typeof writeOutput>[1]): Promise<string> {
  await writeOutput(join(folder, "generated"), files);
  const configPath = join(folder, "tsconfig.json");
  await writeFile(
    configPath,
    JSON.stringify({
      extends: "../../tsconfig.base.json",
      compilerOptions: { declaration: true, emitDeclarationOnly: true, outDir: "declarations", rootDir: "." },
      include: ["generated"],
    }),
  );
  const unreadable: ts.Diagnostic[] = [];
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => unreadable.push(diagnostic),
    },
  );
  if (!config) return ts.formatDiagnostics(unreadable, formatHost);
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host: cachingHost(config.options),
    configFileParsingDiagnostics: config.errors,
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit(undefined, () => {}).diagnostics];
  return ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), formatHost);
}

/** Diagnostics written as tsc writes them to a pipe: paths from the working folder, one per line. */
const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => "\n",
};
