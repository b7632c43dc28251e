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

/** How long a new worker may take to load its engine: a start that hangs must not hold a caller's place for ever. */
const STARTUP_MS = 15_000;

/** A run that could not start or was cut short from outside. */
function stopped(message: string): RunOutcome {
  return { type: "done", ok: false, message, logs: [], logsCut: false };
}

/** Who asks for a run, and the signal that says they went away (their run then stops, or leaves the line). */
export interface RunTicket {
  caller: string;
  gone: AbortSignal;
}

/** A run waiting for a worker: whose it is, and how to let it start. */
interface Waiting {
  caller: string;
  start: () => void;
}

/** How many runs the pool takes: at once, waiting in all, and at once for one caller (as many again may wait). */
export interface PoolLimits {
  maxRuns: number;
  maxQueued: number;
  perCaller: number;
  keepWarm: number;
  memoryMb: number;
  /** How long a new worker may take to be ready before the run is refused. @default 15 s */
  startupMs?: number;
}

/**
 * Worker threads that run programs, each in its own QuickJS context: a busy loop or a crash stops one worker, never
 * the server's event loop. A few runs at a time, a short line behind them served caller by caller (the caller with
 * the fewest runs first), warm workers kept for the next run; a run whose caller went away stops, or leaves the line.
 */
export class SandboxPool {
  private readonly idle: Worker[] = [];
  private readonly line: Waiting[] = [];
  private readonly runningBy = new Map<string, number>();
  private running = 0;

  /** `workerModule`: the sandbox's module (tests give one that misbehaves). */
  constructor(
    private readonly options: PoolLimits,
    private readonly workerModule: URL = WORKER,
  ) {}

  /** Runs a program on a free worker once it is the caller's turn; a caller past its share, or a full line, is refused. */
  async run(request: RunRequest, onCall: CallHandler, ticket: RunTicket): Promise<RunOutcome> {
    const { caller, gone } = ticket;
    if (gone.aborted) return stopped("the caller went away");
    if (!this.mayStart(caller)) {
      const { perCaller, maxQueued } = this.options;
      const waitingOwn = this.line.filter((waiting) => waiting.caller === caller).length;
      if (this.runsOf(caller) + waitingOwn >= 2 * perCaller)
        return stopped(`${this.runsOf(caller)} of your programs are running and ${waitingOwn} waiting; wait for one to end`);
      if (this.line.length >= maxQueued) return stopped("the server is running as many programs as it takes; try again shortly");
      if (!(await this.waitTurn(caller, gone))) return stopped("the caller went away");
    } else this.take(caller);
    try {
      const worker = this.idle.pop() ?? (await this.start());
      if (!worker) return stopped("the sandbox did not start");
      return await this.runOn(worker, request, onCall, gone);
    } finally {
      this.release(caller);
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

  private runsOf(caller: string): number {
    return this.runningBy.get(caller) ?? 0;
  }

  private mayStart(caller: string): boolean {
    return this.running < this.options.maxRuns && this.runsOf(caller) < this.options.perCaller;
  }

  private take(caller: string): void {
    this.running++;
    this.runningBy.set(caller, this.runsOf(caller) + 1);
  }

  private release(caller: string): void {
    this.running--;
    const left = this.runsOf(caller) - 1;
    if (left > 0) this.runningBy.set(caller, left);
    else this.runningBy.delete(caller);
    this.startWaiting();
  }

  /** Waits in line until the run may start (true), or until its caller goes away (false). */
  private waitTurn(caller: string, gone: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const waiting: Waiting = {
        caller,
        start: () => {
          gone.removeEventListener("abort", leave);
          this.take(caller);
          resolve(true);
        },
      };
      const leave = () => {
        const at = this.line.indexOf(waiting);
        if (at >= 0) this.line.splice(at, 1);
        resolve(false);
      };
      gone.addEventListener("abort", leave, { once: true });
      this.line.push(waiting);
    });
  }

  /** Starts waiting runs while workers are free: each time the longest-waiting run of the caller with the fewest running. */
  private startWaiting(): void {
    while (this.running < this.options.maxRuns) {
      let next = -1;
      for (const [at, waiting] of this.line.entries()) {
        const runs = this.runsOf(waiting.caller);
        if (runs >= this.options.perCaller) continue;
        if (next < 0 || runs < this.runsOf((this.line[next] as Waiting).caller)) next = at;
      }
      if (next < 0) return;
      const [waiting] = this.line.splice(next, 1);
      waiting?.start();
    }
  }

  private start(): Promise<Worker | undefined> {
    return new Promise((resolve) => {
      const worker = new Worker(this.workerModule, {
        workerData: { memoryMb: this.options.memoryMb },
        resourceLimits: { maxOldGenerationSizeMb: 96, stackSizeMb: 4 },
      });
      worker.unref();
      const fail = () => {
        clearTimeout(late);
        void worker.terminate();
        resolve(undefined);
      };
      const late = setTimeout(fail, this.options.startupMs ?? STARTUP_MS).unref();
      worker.once("error", fail);
      worker.once("exit", fail);
      worker.once("message", (message: FromWorker) => {
        clearTimeout(late);
        worker.off("error", fail);
        worker.off("exit", fail);
        if (message.type === "ready") resolve(worker);
        else fail();
      });
    });
  }

  private runOn(worker: Worker, request: RunRequest, onCall: CallHandler, gone: AbortSignal): Promise<RunOutcome> {
    return new Promise((resolve) => {
      let finished = false;
      const end = (outcome: RunOutcome, reusable: boolean) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        gone.removeEventListener("abort", onGone);
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
      const onGone = () => end(stopped("the caller went away; the run was stopped"), false);
      const timer = setTimeout(() => end(stopped("the run passed its time budget"), false), request.limits.timeoutMs + GRACE_MS);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      gone.addEventListener("abort", onGone, { once: true });
      worker.postMessage({ type: "run", ...request } satisfies ToWorker);
    });
  }
}
