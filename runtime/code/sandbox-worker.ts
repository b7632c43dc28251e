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

/** The longest error message a run reports (and the server logs): a program's own message past it is cut, and said to be. */
const MAX_ERROR_CHARACTERS = 2_000;

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

/**
 * Evaluated before the program, its value kept by the host alone: a function that settles the run from the program's
 * promise with the engine's own \`then\` and \`JSON.stringify\`, taken before the program could replace them, and hands
 * the host the JSON text (or the error) through \`__done\`.
 */
const FINISH = `(() => {
  const then = Promise.prototype.then, stringify = JSON.stringify, apply = Reflect.apply, done = globalThis.__done;
  delete globalThis.__done;
  const returned = (value) => {
    let text;
    try { text = apply(stringify, undefined, [value === undefined ? null : value]); } catch (error) { return done(false, error, true); }
    done(true, text === undefined ? "null" : text);
  };
  return (program) => { apply(then, program, [returned, (error) => done(false, error, false)]); };
})()`;

/** How the program's promise settled, read on the host: its JSON text or its length past the budget, or its error. */
type Settled = { ok: true; json: string } | { ok: true; oversized: number } | { ok: false; error: QuickJSHandle; returned: boolean };

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
  // Once the run has ended, a handler the program left (run as pending calls are rejected) starts no call.
  let over = false;
  const runtime = engine.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(MAX_STACK_BYTES);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
  const context = runtime.newContext();
  const failed = (message: string, line?: number): FromWorker => ({
    type: "done",
    ok: false,
    message: clip(message),
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
        if (over) return refused(context, pump, `api.${name}: the run has ended`);
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
    let settle: (settled: Settled) => void = () => {};
    const settled = new Promise<Settled>((resolve) => {
      settle = resolve;
    });
    context
      .newFunction("__done", (ok, value, returned) => {
        settle(readSettled(context, ok, value, returned, limits));
      })
      .consume((fn) => context.setProp(context.global, "__done", fn));
    const finish = context.evalCode(FINISH, "finish.js");
    if (finish.error) {
      finish.error.dispose();
      return failed("the sandbox did not start");
    }
    // The program is the body of an async function, on the wrapper's first line: its line numbers are its own.
    const started = context.evalCode(`(async () => {${script}\n})()`, "program.js");
    if (started.error) {
      finish.value.dispose();
      return failed(...errorOf(context, started.error));
    }
    const watching = context.callFunction(finish.value, context.undefined, started.value);
    finish.value.dispose();
    started.value.dispose();
    if (watching.error) return failed(...errorOf(context, watching.error));
    watching.value.dispose();
    runtime.executePendingJobs();
    const outcome = await settled;
    if (!outcome.ok) {
      const [message, line] = errorOf(context, outcome.error);
      // The value the program returned could not be made JSON.
      if (outcome.returned) return failed(`the returned value is no JSON (${message})`);
      return failed(message, line);
    }
    if ("oversized" in outcome)
      return failed(`the returned value is ${outcome.oversized} bytes of JSON; a run may return ${limits.maxOutputBytes}`);
    return { type: "done", ok: true, json: outcome.json, logs, logsCut };
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  } finally {
    over = true;
    for (const waiting of pending.values()) waiting.reject("the run ended");
    pending.clear();
    context.dispose();
    runtime.dispose();
  }
}

/**
 * What `__done` was handed, read without trusting the program: the value must be a string primitive (its length is
 * the engine's own, read before the text is copied out); an error is kept, to be read once the engine is idle.
 */
function readSettled(
  context: QuickJSContext,
  ok: QuickJSHandle,
  value: QuickJSHandle,
  returned: QuickJSHandle,
  limits: RunLimits,
): Settled {
  if (context.typeof(ok) === "boolean" && context.dump(ok) === true) {
    if (context.typeof(value) !== "string") return { ok: false, error: context.newError("it did not become text"), returned: true };
    const length = context.getProp(value, "length").consume((handle) => context.getNumber(handle));
    if (length > limits.maxOutputBytes) return { ok: true, oversized: length };
    return { ok: true, json: context.getString(value) };
  }
  return { ok: false, error: value.dup(), returned: context.typeof(returned) === "boolean" && context.dump(returned) === true };
}

/** A message cut to the longest a run reports, with how much was left out. */
function clip(message: string): string {
  if (message.length <= MAX_ERROR_CHARACTERS) return message;
  return `${message.slice(0, MAX_ERROR_CHARACTERS)}… (${message.length - MAX_ERROR_CHARACTERS} more characters)`;
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
