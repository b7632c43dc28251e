/** The budgets of one run, as the worker applies them. */
export interface RunLimits {
  timeoutMs: number;
  memoryBytes: number;
  /** The most bytes the returned value and the logs may take, as JSON text. */
  maxOutputBytes: number;
  /** The most bytes one `api` call's arguments may take, as JSON text. */
  maxArgumentBytes: number;
  /** The most `api` calls a run may make: past it a call fails at once, in the worker. */
  maxCalls: number;
}

/** Main thread → worker: run a program, or the answer to one of its `api` calls. */
export type ToWorker =
  | { type: "run"; code: string; names: readonly string[]; limits: RunLimits }
  | { type: "answer"; callId: number; ok: true; json: string }
  | { type: "answer"; callId: number; ok: false; message: string };

/** Worker → main thread: the engine is ready, a program calls an operation, or the run ended. */
export type FromWorker =
  | { type: "ready" }
  | { type: "call"; callId: number; name: string; json: string }
  | { type: "done"; ok: true; json: string; logs: string[]; logsCut: boolean }
  | { type: "done"; ok: false; message: string; line?: number; logs: string[]; logsCut: boolean };
