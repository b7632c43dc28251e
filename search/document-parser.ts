import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { DocumentFormat } from "../openapi/load.js";
import { DocumentParseError } from "../openapi/parse-error.js";
import { isOpenApiDocument, type OpenApiDocument } from "../openapi/types.js";

/** What a load may cost: the parse happens in a worker with its own heap and time limit, one at a time. */
export interface ParseBudget {
  /** Operations one document may have. @default 50000 */
  maxOperations: number;
  /** Heap of the parsing worker, in MiB. @default 2048 */
  maxParseMemoryMb: number;
  /** Time one parse may take. @default 120000 */
  parseTimeoutMs: number;
  /** Loads waiting for the worker beyond the running one; more are refused at once. @default 16 */
  maxQueuedLoads: number;
  /** How long an idle worker is kept before it is stopped and its memory returned. @default 2000 */
  idleMs?: number;
}

/** One parse job, as the worker receives it. */
export interface ParseRequest {
  text: string;
  format: DocumentFormat;
  /** How messages name the document (never the server's own paths). */
  label: string;
  maxOperations: number;
}

/** What the worker answers. */
export type ParseResult = { ok: true; document: unknown; sourceVersion: string; warnings: string[] } | { ok: false; message: string };

/** A parsed, normalised document. */
export interface ParsedDocument {
  document: OpenApiDocument;
  sourceVersion: string;
  warnings: string[];
}

/** A document the parser refused; the message is for the caller. */
export class ParseFailure extends Error {
  override name = "ParseFailure";
}

/** The compiled worker: beside this file, or (when running from TypeScript sources) in the build output. */
function workerFile(): URL {
  const beside = new URL("./parse-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const built = new URL("../dist/search/parse-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new Error("search/parse-worker.js not found: run npm run build");
}

/**
 * Parses documents in a worker thread, one at a time: a large or hostile document costs the worker's heap and
 * time, never the event loop that answers other sessions and `/health`.
 */
export class DocumentParser {
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly budget: ParseBudget) {}

  /** Parses text into a normalised document, or fails with a one-line message. */
  parse(text: string, format: DocumentFormat, label: string): Promise<ParsedDocument> {
    if (this.waiting > this.budget.maxQueuedLoads) throw new ParseFailure("the server is busy loading other documents; try again shortly");
    this.waiting++;
    clearTimeout(this.idle);
    const run = this.queue.then(() => this.inWorker({ text, format, label, maxOperations: this.budget.maxOperations }));
    this.queue = run
      .catch(() => {})
      .finally(() => {
        if (--this.waiting === 0) this.stopWhenIdle();
      });
    return run;
  }

  private worker: Worker | undefined;
  private idle: NodeJS.Timeout | undefined;

  /** A parse leaves its garbage in the worker's heap: an idle worker is stopped, so that memory goes back. */
  private stopWhenIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.waiting > 0) return;
      const worker = this.worker;
      this.worker = undefined;
      void worker?.terminate();
    }, this.budget.idleMs ?? 2000);
    this.idle.unref();
  }

  /** Stops the worker (the server is closing). */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  /** The running worker, or a new one (after a failure, or on first use); it never keeps the process alive alone. */
  private running(): Worker {
    if (!this.worker) {
      this.worker = new Worker(workerFile(), { resourceLimits: { maxOldGenerationSizeMb: this.budget.maxParseMemoryMb } });
      this.worker.unref();
    }
    return this.worker;
  }

  /** Runs one parse; a timeout, an out-of-memory end or a crash discards the worker, so the next parse starts clean. */
  private inWorker(request: ParseRequest): Promise<ParsedDocument> {
    const worker = this.running();
    return new Promise<ParsedDocument>((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        worker.unref();
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        outcome();
      };
      const discard = () => {
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
      };
      const onMessage = (result: ParseResult) =>
        settle(() => {
          if (!result.ok) return reject(new ParseFailure(result.message));
          try {
            resolve({
              document: openApiDocument(result.document, request.label),
              sourceVersion: result.sourceVersion,
              warnings: result.warnings,
            });
          } catch (error) {
            reject(error);
          }
        });
      const onError = (error: NodeJS.ErrnoException) =>
        settle(() => {
          discard();
          const reason =
            error.code === "ERR_WORKER_OUT_OF_MEMORY"
              ? `needs more than ${this.budget.maxParseMemoryMb} MiB to parse`
              : `could not be parsed (${error.name})`;
          reject(new ParseFailure(`${request.label}: ${reason}`));
        });
      const onExit = (code: number) =>
        settle(() => {
          discard();
          reject(new ParseFailure(`${request.label}: the parser stopped (exit code ${code})`));
        });
      const timer = setTimeout(
        () =>
          settle(() => {
            discard();
            reject(new ParseFailure(`${request.label}: parsing took longer than ${this.budget.parseTimeoutMs} ms`));
          }),
        this.budget.parseTimeoutMs,
      );
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      // Referenced while it works: a load at start-up must keep the process alive until it is done.
      worker.ref();
      worker.postMessage(request);
    });
  }
}

/** The worker's document, checked to be one. */
function openApiDocument(value: unknown, label: string): OpenApiDocument {
  if (!isOpenApiDocument(value)) throw new DocumentParseError(`${label}: not an OpenAPI document`);
  return value;
}
