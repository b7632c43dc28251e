/** How many operations a collapsed warning names before it counts the rest. */
const NAMED = 3;

/**
 * The generator's warnings as the command line prints them: each once, and a problem of a shared component that every
 * operation reaching it reports (`getA: dropped … at (#/components/schemas/participant)…`) once, naming those operations.
 */
export function warningLines(warnings: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  const order: string[] = [];
  for (const warning of new Set(warnings)) {
    const cut = warning.indexOf(": ");
    const problem = cut > 0 ? warning.slice(cut + 2) : "";
    const key = problem.includes("(#/components/") ? problem : `\u0000${warning}`;
    const operations = groups.get(key);
    if (operations) operations.push(warning.slice(0, cut));
    else {
      groups.set(key, [warning.slice(0, Math.max(cut, 0))]);
      order.push(key);
    }
  }
  return order.map((key) => {
    const operations = groups.get(key) ?? [];
    if (key.startsWith("\u0000")) return key.slice(1);
    if (operations.length === 1) return `${operations[0]}: ${key}`;
    const named = operations.slice(0, NAMED).join(", ");
    const more = operations.length > NAMED ? ` and ${operations.length - NAMED} more` : "";
    return `${key} (in ${operations.length} operations: ${named}${more})`;
  });
}
