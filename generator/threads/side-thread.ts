import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { DiscoveryData } from "oapi-mcp-gen-runtime";
import { compileCacheEnabled } from "../cache/compile-cache.js";
import type { DiscoveryInput } from "../model/discovery.js";
import type { SideJob, SideResult } from "./side-jobs.js";

const WORKER = new URL("./side-worker.js", import.meta.url);
/** Below this many operations, a worker's start-up (a second TypeScript and prettier) costs more CPU than the overlap saves wall time. */
const MIN_OPERATIONS = 64;

/** What a waiting job is settled with. */
interface Waiting {
  resolve: (result: SideResult) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread for the types module, the search index and the README, so they are made on a second core while
 * this thread builds and renders the tool modules. Started on the first job, or earlier (`warm`) while the document is
 * read. For a small selection, on one core, without a compiled worker (tests run the TypeScript) or with
 * `OAPI_MCP_GEN_WORKERS=0`, jobs run on this thread.
 */
export class SideThread {
  private worker: Worker | undefined;
  private ready = false;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private here = false;

  /** Starts the thread now, loading what its jobs run on, where a thread would be used at all; says whether it did. */
  warm(): boolean {
    if (!SideThread.available() || availableParallelism() < 2) return false;
    this.start(true);
    return true;
  }

  /** Sizes the thread to the selection: a small one's jobs run on this thread, unless one was started already. */
  sizeFor(operations: number): void {
    this.here = operations < MIN_OPERATIONS && this.worker === undefined;
  }

  /** The types module or the README, made on the side thread. */
  async text(job: Extract<SideJob, { kind: "types" | "readme" }>): Promise<string> {
    const result = await this.run(job);
    if (result.kind !== "text") throw new Error(`internal: a ${job.kind} job made no text`);
    return result.text;
  }

  /** The search data a discovery server loads, built on the side thread. */
  async discovery(input: DiscoveryInput): Promise<DiscoveryData> {
    const result = await this.run({ kind: "discovery", input });
    if (result.kind !== "discovery") throw new Error("internal: a discovery job made no search data");
    return result.data;
  }

  /** Stops the worker: an idle one is asked to end (so its compile cache is saved), a busy one is terminated and its jobs fail. */
  close(): void {
    if (this.waiting.size === 0 && this.ready) this.worker?.postMessage({ stop: true });
    else void this.worker?.terminate();
    this.fail(new Error("side thread closed"));
    this.worker = undefined;
  }

  /** Whether jobs can go to a worker at all: one is compiled, and not turned off. */
  private static available(): boolean {
    return process.env.OAPI_MCP_GEN_WORKERS !== "0" && existsSync(fileURLToPath(WORKER));
  }

  private async run(job: SideJob): Promise<SideResult> {
    if (this.worker === undefined && (this.here || !SideThread.available())) {
      const { runSideJob } = await import("./side-jobs.js");
      return runSideJob(job);
    }
    const worker = this.start(false);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, job });
    });
  }

  private start(warm: boolean): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER, { workerData: { compileCache: compileCacheEnabled(), warm } });
    worker.on("message", (message: { ready?: true; id: number; result?: SideResult; error?: string }) => {
      if (message.ready) {
        this.ready = true;
        return;
      }
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else if (message.result !== undefined) waiting?.resolve(message.result);
      else waiting?.reject(new Error("internal: the side thread answered with nothing"));
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
