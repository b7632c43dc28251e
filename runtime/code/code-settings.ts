/** How a server runs `run_code` programs (the config's `code`); every budget has a default. */
export interface CodeSettings {
  /** Whether programs may call operations that change data (not GET, HEAD or OPTIONS): no (the default), all, or these by name. */
  readonly allowWrites?: boolean | readonly string[];
  /** Wall time of one run. @default 10000 */
  readonly timeoutMs?: number;
  /** Memory of one run's engine. @default 64 */
  readonly memoryMb?: number;
  /** `api` calls one run may make. @default 50 */
  readonly maxCalls?: number;
  /** Bytes of JSON a run may return (and half as many of logs). @default 1048576 */
  readonly maxOutputBytes?: number;
  /** Code mode alone: `run_code` takes the place of `call_operation` beside search and describe. */
  readonly replacesCall?: boolean;
  /**
   * Each program is checked against the operations' types before it runs (TypeScript, an optional package): a type
   * error is the run's result, and nothing is called.
   */
  readonly typeCheck?: boolean;
}

/** The budgets of a run with the defaults applied. */
export interface CodeBudgets {
  timeoutMs: number;
  memoryMb: number;
  maxCalls: number;
  maxOutputBytes: number;
}

/** The settings' budgets, each at its default when unset. */
export function budgetsOf(settings: CodeSettings): CodeBudgets {
  return {
    timeoutMs: settings.timeoutMs ?? 10_000,
    memoryMb: settings.memoryMb ?? 64,
    maxCalls: settings.maxCalls ?? 50,
    maxOutputBytes: settings.maxOutputBytes ?? 1_048_576,
  };
}

/** True for a method that only reads. */
export function readsOnly(method: string): boolean {
  return ["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
}
