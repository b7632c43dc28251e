import { writeSync } from "node:fs";

/** Where the runtime reports what happens: one line per event on stderr (JSON by default). */
export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Severity order; `LOG_LEVEL` keeps its level and everything above it. */
const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
type Level = (typeof LEVELS)[number];

const FORMATS = ["json", "text"] as const;
/** `LOG_FORMAT`: one JSON object a line, or `time LEVEL message key=value…` for people. */
export type LogFormat = (typeof FORMATS)[number];

/**
 * A logger writing at or above `level` to a stream (stderr: stdout stays free for stdio transports). Lines for stderr
 * leave together once per turn of the event loop, one write for a burst of calls; what is pending goes at exit.
 */
export function createLogger(level: Level = "info", format: LogFormat = "json", given?: { write(text: string): unknown }): Logger {
  const stream = given ?? batchedStderr();
  const threshold = LEVELS.indexOf(level);
  const at = (name: Exclude<Level, "silent">) => (message: string, fields?: Record<string, unknown>) => {
    if (LEVELS.indexOf(name) < threshold) return;
    stream.write(format === "json" ? jsonLine(name, message, fields) : textLine(name, message, fields));
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** The logger `LOG_LEVEL` and `LOG_FORMAT` ask for, or the problem with them. */
export function loggerFromEnvironment(env: NodeJS.ProcessEnv): Logger | { problem: string } {
  const level = oneOf(LEVELS, env.LOG_LEVEL?.trim().toLowerCase() || "info");
  const format = oneOf(FORMATS, env.LOG_FORMAT?.trim().toLowerCase() || "json");
  if (level === undefined) return { problem: `LOG_LEVEL: "${String(env.LOG_LEVEL).slice(0, 40)}" must be one of ${LEVELS.join(", ")}` };
  if (format === undefined) return { problem: `LOG_FORMAT: "${String(env.LOG_FORMAT).slice(0, 40)}" must be json or text` };
  return createLogger(level, format);
}

let stderrBatch: { write(text: string): void } | undefined;

/** stderr, written once per turn of the event loop (each write is a system call); the lines still pending go at exit. */
function batchedStderr(): { write(text: string): void } {
  if (stderrBatch) return stderrBatch;
  let pending: string[] = [];
  const flush = () => {
    const text = pending.join("");
    pending = [];
    if (text !== "") process.stderr.write(text);
  };
  process.once("exit", () => {
    if (pending.length > 0) writeSync(2, pending.join(""));
  });
  stderrBatch = {
    write(text) {
      if (pending.push(text) === 1) setImmediate(flush);
    },
  };
  return stderrBatch;
}

/** The choice that equals `text`, typed as a choice. */
function oneOf<Choice extends string>(choices: readonly Choice[], text: string): Choice | undefined {
  return choices.find((choice) => choice === text);
}

/** JSON lines on stderr at `info` and above. */
export const stderrLogger: Logger = createLogger();

/** Discards everything; for tests and embedding. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

function jsonLine(level: string, message: string, fields?: Record<string, unknown>): string {
  return `${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`;
}

function textLine(level: string, message: string, fields: Record<string, unknown> = {}): string {
  const pairs = Object.entries(fields).map(
    ([key, value]) =>
      `${key}=${typeof value === "string" && /^[\x21-\x7e]+$/.test(value) && !/["=]/.test(value) ? value : JSON.stringify(value)}`,
  );
  return `${new Date().toISOString()} ${level.toUpperCase()} ${message}${pairs.length > 0 ? ` ${pairs.join(" ")}` : ""}\n`;
}
