import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type DocumentFormat, DocumentParseError, isOpenApiDocument, type OpenApiDocument } from "../../openapi/document/index.js";

/** What a load may cost: the parse happens in a worker with its own heap and a time limit scaled to its size. */
export interface ParseBudget {
  /** Operations one document may have. @default 50000 */
  maxOperations: number;
  /** Heap of each parsing worker, in MiB. @default 2048 */
  maxParseMemoryMb: number;
  /** Time the largest parse may take; a small document gets far less (see `parseTimeFor`). @default 120000 */
  parseTimeoutMs: number;
  /** Loads waiting for a worker beyond the running ones; more are refused at once. @default 16 */
  maxQueuedLoads: number;
  /** Parses that run at once, each in its own worker, so one slow load does not hold up the others. @default 2 */
  maxWorkers?: number;
  /** How long an idle worker is kept before it is stopped and its memory returned. @default 2000 */
  idleMs?: number;
}

/**
 * The time a parse of `bytes` may take: five seconds for a small document, plus a second per 100 KB (a 10 MB document
 * parses in a few seconds here; 105 s are allowed), never past `limitMs`.
 */
export function parseTimeFor(bytes: number, limitMs: number): number {
  return Math.min(limitMs, 5_000 + Math.floor(bytes / 100));
}

/** One parse job, as the worker receives it. */
export interface ParseRequest {
  text: string;
  format: DocumentFormat;
  /** How messages name the document (never the server's own paths). */
  label: string;
  maxOperations: number;
  /** Whether to answer with the normalised document's JSON text too (made in the worker, for a store that keeps it). */
  json: boolean;
}

/** What the worker answers. */
export type ParseResult =
  | { ok: true; document: unknown; sourceVersion: string; warnings: string[]; builtBytes: number; json?: string }
  | { ok: false; message: string };

/** A parsed, normalised document. */
export interface ParsedDocument {
  document: OpenApiDocument;
  sourceVersion: string;
  warnings: string[];
  /**
   * What the load built, as the characters of the normalised document's JSON: what a catalogue's budget counts, since
   * a small text can build a large document (a GraphQL schema's selections, a YAML anchor's copies).
   */
  builtBytes: number;
  /** The document as JSON text, when asked for. */
  json?: string;
}

/** A document the parser refused; the message is for the caller. */
export class ParseFailure extends Error {
  override name = "ParseFailure";
}

/** The compiled worker: beside this file, or (when running from TypeScript sources) in the build output. */
function workerFile(): URL {
  const beside = new URL("./parse-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  const built = new URL("../../dist/search/documents/parse-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new Error("search/documents/parse-worker.js not found: run npm run build");
}

/**
 * Parses documents in worker threads (up to `maxWorkers` at once, each with its own heap and time limit): a large or
 * hostile document costs a worker's heap and time, never the event loop that answers other sessions and `/health`,
 * and one slow load does not queue the others behind it.
 */
export class DocumentParser {
  private readonly idleWorkers: Worker[] = [];
  private readonly pending: (() => void)[] = [];
  private running = 0;
  private idle: NodeJS.Timeout | undefined;
  /** Workers a timeout or crash ended: never returned to the pool. */
  private readonly ended = new WeakSet<Worker>();

  constructor(private readonly budget: ParseBudget) {}

  /** Parses text into a normalised document (and its JSON text, when asked), or fails with a one-line message. */
  async parse(text: string, format: DocumentFormat, label: string, options: { json?: boolean } = {}): Promise<ParsedDocument> {
    const workers = Math.max(1, this.budget.maxWorkers ?? 2);
    if (this.running >= workers && this.pending.length >= this.budget.maxQueuedLoads)
      throw new ParseFailure("the server is busy loading other documents; try again shortly");
    clearTimeout(this.idle);
    if (this.running >= workers) await new Promise<void>((resolve) => this.pending.push(resolve));
    this.running++;
    const worker = this.idleWorkers.pop() ?? this.newWorker();
    try {
      const timeoutMs = parseTimeFor(Buffer.byteLength(text), this.budget.parseTimeoutMs);
      const request = { text, format, label, maxOperations: this.budget.maxOperations, json: options.json === true };
      return await this.inWorker(worker, request, timeoutMs);
    } finally {
      if (!this.ended.has(worker)) this.idleWorkers.push(worker);
      this.running--;
      const next = this.pending.shift();
      if (next) next();
      else if (this.running === 0) this.stopWhenIdle();
    }
  }

  /** A parse leaves its garbage in the worker's heap: idle workers are stopped, so that memory goes back. */
  private stopWhenIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.running > 0) return;
      for (const worker of this.idleWorkers.splice(0)) void worker.terminate();
    }, this.budget.idleMs ?? 2000);
    this.idle.unref();
  }

  /** Stops the workers (the server is closing). */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    await Promise.all(this.idleWorkers.splice(0).map((worker) => worker.terminate()));
  }

  /** A new worker; it never keeps the process alive alone. */
  private newWorker(): Worker {
    const worker = new Worker(workerFile(), { resourceLimits: { maxOldGenerationSizeMb: this.budget.maxParseMemoryMb } });
    worker.unref();
    return worker;
  }

  /**
   * Runs one parse; a timeout, an out-of-memory end or a crash ends the worker (it is not returned to the pool), so
   * the next parse starts clean.
   */
  private inWorker(worker: Worker, request: ParseRequest, timeoutMs: number): Promise<ParsedDocument> {
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
        this.ended.add(worker);
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
              builtBytes: result.builtBytes,
              ...(result.json === undefined ? {} : { json: result.json }),
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
            reject(new ParseFailure(`${request.label}: parsing took longer than ${timeoutMs} ms (the limit for a document of its size)`));
          }),
        timeoutMs,
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
