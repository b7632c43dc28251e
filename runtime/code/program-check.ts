import { EnvironmentError } from "../base/environment-error.js";
import type { ToolDefinition } from "../base/tool.js";
import { apiDeclarations } from "../tools/api-signature.js";

type TypeScript = typeof import("typescript");
type SourceFile = import("typescript").SourceFile;

/** A program runs as the body of an async function: what stands before its first line. */
const WRAPPER_HEAD = "async function program(): Promise<unknown> {\n";
/** How long one check may take; past it the program is refused as too large to check. */
const CHECK_BUDGET_MS = 5_000;
/** Errors a refusal names, the first ones by line. */
const SHOWN_ERRORS = 5;
/** Characters of one error shown: the compiler spells out whole types. */
const SHOWN_ERROR_LENGTH = 400;

/** Checks a program against `api`: the errors it has, each with its line; none means it may run. */
export interface ProgramChecker {
  check(code: string): string[];
}

/** The TypeScript compiler, an optional package: a deployment that checks programs installs it. */
async function loadTypeScript(): Promise<TypeScript> {
  try {
    const loaded = await import("typescript");
    return (loaded as { default?: TypeScript }).default ?? loaded;
  } catch {
    throw new EnvironmentError(
      "code.typeCheck is on, but typescript is not installed: generate again (the config's code.typeCheck puts it in the generated package.json's dependencies) and npm install",
    );
  }
}

const checkers = new WeakMap<readonly ToolDefinition[], Promise<ProgramChecker>>();

/** The checker of a registry, made once (the server's start makes it, so a missing compiler stops the start). */
export function checkerFor(tools: readonly ToolDefinition[]): Promise<ProgramChecker> {
  let checker = checkers.get(tools);
  if (!checker) {
    checker = programChecker(tools);
    checkers.set(tools, checker);
  }
  return checker;
}

/**
 * A checker for this registry's operations: the declarations and the standard library are parsed once, each check
 * compiles only the program (the compiler reuses the rest), within a time budget it checks as it goes.
 */
export async function programChecker(tools: readonly ToolDefinition[]): Promise<ProgramChecker> {
  const ts = await loadTypeScript();
  const options: import("typescript").CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    noEmit: true,
    // What a model writes against what an API answers: optional fields read without checks are its business.
    strict: false,
    types: [],
    skipLibCheck: true,
    noResolve: true,
  };
  const files = new Map<string, SourceFile>();
  const declarations = "api.d.ts";
  files.set(declarations, ts.createSourceFile(declarations, apiDeclarations(tools), ts.ScriptTarget.ES2022, true));
  const host = ts.createCompilerHost(options, true);
  const readLibrary = host.getSourceFile.bind(host);
  let program: import("typescript").Program | undefined;
  let current = "";
  host.getSourceFile = (name, version) => {
    if (name === "program.ts") return ts.createSourceFile(name, current, version, true);
    let file = files.get(name);
    if (!file) {
      file = readLibrary(name, version);
      if (file) files.set(name, file);
    }
    return file;
  };
  host.fileExists = (name) => name === "program.ts" || files.has(name) || ts.sys.fileExists(name);
  host.writeFile = () => {};
  return {
    check(code) {
      current = `${WRAPPER_HEAD}${code}\n}\n`;
      const lines = code.split("\n").length;
      program = ts.createProgram({ rootNames: [declarations, "program.ts"], options, host, ...(program ? { oldProgram: program } : {}) });
      const source = program.getSourceFile("program.ts");
      if (!source) return ["the program could not be read"];
      const deadline = Date.now() + CHECK_BUDGET_MS;
      const budget: import("typescript").CancellationToken = {
        isCancellationRequested: () => Date.now() > deadline,
        throwIfCancellationRequested() {
          if (Date.now() > deadline) throw new ts.OperationCanceledException();
        },
      };
      let diagnostics: readonly import("typescript").Diagnostic[];
      try {
        diagnostics = [...program.getSyntacticDiagnostics(source, budget), ...program.getSemanticDiagnostics(source, budget)];
      } catch (error) {
        if (error instanceof ts.OperationCanceledException)
          return [`checking it took over ${CHECK_BUDGET_MS / 1000} s: write a shorter program`];
        throw error;
      }
      return diagnostics.slice(0, SHOWN_ERRORS).map((diagnostic) => {
        const line = diagnostic.start === undefined ? undefined : source.getLineAndCharacterOfPosition(diagnostic.start).line;
        const whole = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
        const text = whole.length > SHOWN_ERROR_LENGTH ? `${whole.slice(0, SHOWN_ERROR_LENGTH - 1)}…` : whole;
        // The wrapper's lines are not the program's: its first line is line 1, and its closing brace is the program's end.
        return line === undefined ? text : `line ${Math.min(Math.max(line, 1), lines)}: ${text}`;
      });
    },
  };
}
