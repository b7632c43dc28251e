/** Worker thread: runs `run_code` programs in a QuickJS engine (WebAssembly), one at a time, each in a fresh context. */
import { parentPort, workerData } from "node:worker_threads";
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSSyncVariant,
  shouldInterruptAfterDeadline,
} from "quickjs-emscripten-core";
import { transform } from "sucrase";
import type { FromWorker, RunLimits, ToWorker } from "./sandbox-protocol.js";

const port = parentPort;
if (!port) throw new Error("sandbox-worker runs as a worker thread");
/**
 * The engine's whole WebAssembly memory, capped: QuickJS's own limit does not count every allocation (typed arrays),
 * so past the cap an allocation fails as "out of memory" instead of growing the process. The room above the run's
 * budget (as much again, at least 64 MB) is the engine's own: its bookkeeping and what the budget does not count.
 */
const settings: { memoryMb: number } = workerData;
const PAGE = 65_536;
const memory = new WebAssembly.Memory({
  initial: (16 * 1_048_576) / PAGE,
  maximum: (Math.max(2 * settings.memoryMb, settings.memoryMb + 64) * 1_048_576) / PAGE,
});
const engine = await newQuickJSWASMModuleFromVariant(newVariant(syncVariant(releaseSync), { wasmMemory: memory }));

/** The engine build, whether the package's default export arrives as itself or wrapped by CommonJS interop. */
function syncVariant(loaded: unknown): QuickJSSyncVariant {
  const candidate = isObject(loaded) && isObject(loaded.default) ? loaded.default : loaded;
  if (isSyncVariant(candidate)) return candidate;
  throw new Error("the QuickJS engine build is not the synchronous one");
}

function isSyncVariant(value: unknown): value is QuickJSSyncVariant {
  return (
    isObject(value) && value.type === "sync" && typeof value.importFFI === "function" && typeof value.importModuleLoader === "function"
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** What a run may log: lines and characters (past them, `logsCut`). */
const MAX_LOG_LINES = 1_000;
const MAX_LOG_CHARACTERS = 65_536;

/** Room for the engine's own frames below the program's: QuickJS reports a stack overflow before WebAssembly's runs out. */
const MAX_STACK_BYTES = 256 * 1024;

/** What the program sees besides the language: `api`, built from the operation names passed as data, and `console`. */
const PRELUDE = `
const call = globalThis.__call, log = globalThis.__log, names = JSON.parse(globalThis.__names);
delete globalThis.__call; delete globalThis.__log; delete globalThis.__names;
const show = (value) => (typeof value === "string" ? value : JSON.stringify(value) ?? String(value));
const api = Object.create(null);
for (const name of names)
  api[name] = (args) => call(name, JSON.stringify(args ?? {}) ?? "null").then((text) => JSON.parse(text));
globalThis.api = Object.freeze(api);
const write = (...values) => { const line = values.map(show).join(" "); log(line.length > 65537 ? line.slice(0, 65537) : line); };
globalThis.console = Object.freeze({ log: write, info: write, warn: write, error: write, debug: write });
`;

const pending = new Map<number, { resolve: (json: string) => void; reject: (message: string) => void }>();
let nextCall = 0;

port.on("message", (message: ToWorker) => {
  if (message.type === "answer") {
    const waiting = pending.get(message.callId);
    pending.delete(message.callId);
    if (message.ok) waiting?.resolve(message.json);
    else waiting?.reject(message.message);
    return;
  }
  void run(message.code, message.names, message.limits).then((done) => port.postMessage(done satisfies FromWorker));
});
port.postMessage({ type: "ready" } satisfies FromWorker);

/** Runs one program to its end: its value as JSON, or its error with the line it came from. */
async function run(code: string, names: readonly string[], limits: RunLimits): Promise<FromWorker> {
  const logs: string[] = [];
  let logCharacters = 0;
  let calls = 0;
  let logsCut = false;
  const runtime = engine.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
  const context = runtime.newContext();
  const failed = (message: string, line?: number): FromWorker => ({
    type: "done",
    ok: false,
    message,
    ...(line !== undefined ? { line } : {}),
    logs,
    logsCut,
  });
  try {
    let script: string;
    try {
      script = transform(code, { transforms: ["typescript"], disableESTransforms: true }).code;
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      const line = /\((\d+):\d+\)/.exec(text)?.[1];
      return failed(`SyntaxError: ${text}`, line ? Number(line) : undefined);
    }
    context
      .newFunction("__log", (text) => {
        const line = context.getString(text);
        const room = MAX_LOG_CHARACTERS - logCharacters;
        if (logs.length >= MAX_LOG_LINES || room <= 0) logsCut = true;
        else {
          // A line longer than the room left keeps its start: the rest is cut, and said to be.
          logs.push(line.length > room ? `${line.slice(0, room)}…` : line);
          logCharacters += Math.min(line.length, room);
          if (line.length > room) logsCut = true;
        }
      })
      .consume((fn) => context.setProp(context.global, "__log", fn));
    context
      .newFunction("__call", (nameHandle, argsHandle) => {
        const name = context.getString(nameHandle);
        const pump = () => runtime.executePendingJobs();
        if (++calls > limits.maxCalls) return refused(context, pump, `api.${name}: the run's ${limits.maxCalls} calls are used up`);
        return callApi(context, pump, name, context.getString(argsHandle), limits);
      })
      .consume((fn) => context.setProp(context.global, "__call", fn));
    context.newString(JSON.stringify(names)).consume((text) => context.setProp(context.global, "__names", text));
    const prelude = context.evalCode(PRELUDE, "prelude.js");
    if (prelude.error) {
      prelude.error.dispose();
      return failed("the sandbox did not start");
    }
    prelude.value.dispose();
    // The program is the body of an async function, on the wrapper's first line: its line numbers are its own.
    // The returned value is measured in the engine: a value past the limit never crosses (its length does).
    const json = '(JSON.stringify(value === undefined ? null : value) ?? "null")';
    const wrapped = `(async () => {${script}\n})().then((value) => { const text = ${json}; return text.length > ${Number(limits.maxOutputBytes)} ? text.length : text; })`;
    const started = context.evalCode(wrapped, "program.js");
    if (started.error) return failed(...errorOf(context, started.error));
    const settled = context.resolvePromise(started.value);
    started.value.dispose();
    runtime.executePendingJobs();
    const outcome = await settled;
    if (outcome.error) {
      const [message, line] = errorOf(context, outcome.error);
      // An error on the wrapper's last line is the returned value's: JSON.stringify refused it.
      if (line !== undefined && line > script.split("\n").length) return failed(`the returned value is no JSON (${message})`);
      return failed(message, line);
    }
    const returned = outcome.value.consume((value) =>
      context.typeof(value) === "number" ? context.getNumber(value) : context.getString(value),
    );
    if (typeof returned === "number")
      return failed(`the returned value is ${returned} bytes of JSON; a run may return ${limits.maxOutputBytes}`);
    return { type: "done", ok: true, json: returned, logs, logsCut };
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  } finally {
    for (const waiting of pending.values()) waiting.reject("the run ended");
    pending.clear();
    context.dispose();
    runtime.dispose();
  }
}

/** A call refused in the worker: its promise rejects with the message. */
function refused(context: QuickJSContext, pump: () => unknown, message: string): QuickJSHandle {
  const deferred = context.newPromise();
  context.newError(message).consume((error) => deferred.reject(error));
  pump();
  return deferred.handle;
}

/** An `api` call: handed to the main thread, which runs the operation; its answer settles the program's promise. */
function callApi(context: QuickJSContext, pump: () => unknown, name: string, json: string, limits: RunLimits): QuickJSHandle {
  const deferred = context.newPromise();
  const settle = (handle: QuickJSHandle, resolve: boolean) => {
    if (!context.alive) return;
    if (resolve) deferred.resolve(handle);
    else deferred.reject(handle);
    handle.dispose();
    pump();
  };
  if (json.length > limits.maxArgumentBytes) {
    settle(
      context.newError(`api.${name}: its arguments are ${json.length} bytes of JSON; a call may pass ${limits.maxArgumentBytes}`),
      false,
    );
    return deferred.handle;
  }
  const callId = nextCall++;
  pending.set(callId, {
    resolve: (answer) => settle(context.newString(answer), true),
    reject: (message) => settle(context.newError(message), false),
  });
  port?.postMessage({ type: "call", callId, name, json } satisfies FromWorker);
  return deferred.handle;
}

/** A thrown value as a message and the program line it came from (QuickJS stacks read `program.js:LINE:COLUMN`). */
function errorOf(context: QuickJSContext, handle: QuickJSHandle): [message: string, line?: number] {
  const error: unknown = context.dump(handle);
  handle.dispose();
  if (!isObject(error)) return [`uncaught ${JSON.stringify(error) ?? String(error)}`];
  const { name, message, stack } = error;
  const line = typeof stack === "string" ? /program\.js:(\d+)/.exec(stack)?.[1] : undefined;
  const text =
    name === "InternalError" && message === "interrupted"
      ? "the run passed its time budget"
      : `${String(name ?? "Error")}: ${String(message ?? "")}`;
  return line ? [text, Number(line)] : [text];
}
