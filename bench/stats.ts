/** Percentile of a sample (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/** Median of a sample. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Runs `task` `runs` times and returns the wall times in milliseconds. */
export async function timeRuns(runs: number, task: () => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  return times;
}

/** A number rounded for a table. */
export function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "—";
}

/** Prints a Markdown table and returns its text. */
export function table(headers: string[], rows: string[][]): string {
  const text = [
    `| ${headers.join(" | ")} |`,
    `|${headers.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
  process.stdout.write(`${text}\n\n`);
  return text;
}
