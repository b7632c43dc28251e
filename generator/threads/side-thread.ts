import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { compileCacheEnabled } from "../cache/compile-cache.js";
import type { SideJob } from "./side-jobs.js";

const WORKER = new URL("./side-worker.js", import.meta.url);
/** Below this many operations, a worker's start-up (a second TypeScript and prettier) costs more CPU than the overlap saves wall time. */
const MIN_OPERATIONS = 64;

/** What a waiting job is settled with. */
interface Waiting {
  resolve: (text: string) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread for the types module and the README, started on the first job, so they are made on a second core
 * while this thread renders the tool modules. For a small selection, without a compiled worker (tests run the
 * TypeScript) or with `OAPI_MCP_GEN_WORKERS=0`, jobs run on this thread.
 */
export class SideThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private here = false;

  /** Sizes the thread to the selection: a small one's jobs run on this thread. */
  sizeFor(operations: number): void {
    this.here = operations < MIN_OPERATIONS;
  }

  /** Runs a job on the side thread. */
  async run(job: SideJob): Promise<string> {
    if (this.here || process.env.OAPI_MCP_GEN_WORKERS === "0" || !existsSync(fileURLToPath(WORKER))) {
      const { runSideJob } = await import("./side-jobs.js");
      return runSideJob(job);
    }
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, job });
    });
  }

  /** Stops the worker: an idle one is asked to end (so its compile cache is saved), a busy one is terminated and its jobs fail. */
  close(): void {
    if (this.waiting.size === 0) this.worker?.postMessage({ stop: true });
    else void this.worker?.terminate();
    this.fail(new Error("side thread closed"));
    this.worker = undefined;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER, { workerData: { compileCache: compileCacheEnabled() } });
    worker.on("message", ({ id, text, error }: { id: number; text?: string; error?: string }) => {
      const waiting = this.waiting.get(id);
      this.waiting.delete(id);
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(text ?? "");
    });
    worker.on("error", (error) => this.fail(error));
    worker.on("exit", (code) => {
      if (code !== 0) this.fail(new Error(`side thread exited with ${code}`));
    });
    this.worker = worker;
    return worker;
  }

  private fail(error: Error): void {
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }
}
