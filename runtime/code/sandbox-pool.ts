import { Worker } from "node:worker_threads";
import type { FromWorker, RunLimits, ToWorker } from "./sandbox-protocol.js";

/** How a run ended: its value as JSON text, or an error with the program line it came from; and what it logged. */
export type RunOutcome = Extract<FromWorker, { type: "done" }>;

/** Answers a program's `api` call (name and arguments as JSON text) with the operation's value as JSON text, or a message. */
export type CallHandler = (name: string, json: string) => Promise<{ ok: true; json: string } | { ok: false; message: string }>;

/** A program to run, the operations its `api` has and its budgets. */
export interface RunRequest {
  code: string;
  names: readonly string[];
  limits: RunLimits;
}

/** The worker's module: beside this one when built, in the runtime's build output when this runs from source (tests). */
const WORKER = import.meta.url.endsWith(".ts")
  ? new URL("../dist/code/sandbox-worker.js", import.meta.url)
  : new URL("./sandbox-worker.js", import.meta.url);

/** Past the budget, the worker is stopped from outside: the engine's own check only runs while the program computes. */
const GRACE_MS = 100;

/** A run that could not start or was cut short from outside. */
function stopped(message: string): RunOutcome {
  return { type: "done", ok: false, message, logs: [], logsCut: false };
}

/**
 * Worker threads that run programs, each in its own QuickJS context: a busy loop or a crash stops one worker, never
 * the server's event loop. A few runs at a time, a short queue behind them, and warm workers kept for the next run.
 */
export class SandboxPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private running = 0;

  constructor(private readonly options: { maxRuns: number; maxQueued: number; keepWarm: number; memoryMb: number }) {}

  /** Runs a program on a free worker; a full pool with a full queue refuses at once. */
  async run(request: RunRequest, onCall: CallHandler): Promise<RunOutcome> {
    if (this.running >= this.options.maxRuns) {
      if (this.waiting.length >= this.options.maxQueued)
        return stopped("the server is running as many programs as it takes; try again shortly");
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running++;
    try {
      const worker = this.idle.pop() ?? (await this.start());
      if (!worker) return stopped("the sandbox did not start");
      return await this.runOn(worker, request, onCall);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Starts one worker ahead of the first run, so that run does not wait for the engine. */
  async warm(): Promise<void> {
    if (this.idle.length > 0) return;
    const worker = await this.start();
    if (worker) this.idle.push(worker);
  }

  /** Stops the idle workers (a run in progress ends on its own). */
  async close(): Promise<void> {
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()));
  }

  private start(): Promise<Worker | undefined> {
    return new Promise((resolve) => {
      const worker = new Worker(WORKER, {
        workerData: { memoryMb: this.options.memoryMb },
        resourceLimits: { maxOldGenerationSizeMb: 96, stackSizeMb: 4 },
      });
      worker.unref();
      const fail = () => {
        void worker.terminate();
        resolve(undefined);
      };
      worker.once("error", fail);
      worker.once("exit", fail);
      worker.once("message", (message: FromWorker) => {
        worker.off("error", fail);
        worker.off("exit", fail);
        if (message.type === "ready") resolve(worker);
        else fail();
      });
    });
  }

  private runOn(worker: Worker, request: RunRequest, onCall: CallHandler): Promise<RunOutcome> {
    return new Promise((resolve) => {
      let finished = false;
      const end = (outcome: RunOutcome, reusable: boolean) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (reusable && this.idle.length < this.options.keepWarm) this.idle.push(worker);
        else void worker.terminate();
        resolve(outcome);
      };
      const onMessage = (message: FromWorker) => {
        if (message.type === "done") return end(message, true);
        if (message.type !== "call") return;
        // A call that fails unexpectedly is the program's error, never the server's unhandled rejection.
        void onCall(message.name, message.json)
          .catch((error: unknown) => ({
            ok: false as const,
            message: `api.${message.name}: ${error instanceof Error ? error.message : String(error)}`,
          }))
          .then((answer) => {
            if (!finished) worker.postMessage({ type: "answer", callId: message.callId, ...answer } satisfies ToWorker);
          });
      };
      const onError = (error: Error) => end(stopped(`the sandbox stopped: ${error.message}`), false);
      const onExit = () => end(stopped("the sandbox stopped"), false);
      const timer = setTimeout(() => end(stopped("the run passed its time budget"), false), request.limits.timeoutMs + GRACE_MS);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({ type: "run", ...request } satisfies ToWorker);
    });
  }
}
