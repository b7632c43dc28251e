import { someOf } from "oapi-mcp-gen-runtime";

/** How many operations a collapsed warning names before it counts the rest. */
const NAMED = 3;

/**
 * The generator's warnings as the command line prints them: each once, and a problem of a shared component that every
 * operation reaching it reports (`getA: dropped … at (#/components/schemas/participant)…`) once, naming those operations.
 */
export function warningLines(warnings: readonly string[]): string[] {
  // Each warning once, in order; a shared component's problem stands at its first place, and gathers its operations.
  const lines: string[] = [];
  const operations = new Map<string, string[]>();
  for (const warning of new Set(warnings)) {
    const cut = warning.indexOf(": ");
    const problem = warning.slice(cut + 2);
    if (cut <= 0 || !problem.includes("(#/components/")) lines.push(warning);
    else if (operations.has(problem)) operations.get(problem)?.push(warning.slice(0, cut));
    else {
      operations.set(problem, [warning.slice(0, cut)]);
      lines.push(problem);
    }
  }
  return lines.map((line) => {
    const reporting = operations.get(line);
    if (reporting === undefined) return line;
    if (reporting.length === 1) return `${reporting[0]}: ${line}`;
    return `${line} (in ${reporting.length} operations: ${someOf(reporting, NAMED)})`;
  });
}
