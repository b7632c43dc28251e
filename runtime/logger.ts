/** Where the runtime reports what happens: one JSON line per event on stderr by default. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Writes JSON lines to stderr (stdout stays free for stdio transports). */
export const stderrLogger: Logger = {
  info: (message, fields) => write("info", message, fields),
  warn: (message, fields) => write("warn", message, fields),
  error: (message, fields) => write("error", message, fields),
};

/** Discards everything; for tests and embedding. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

function write(level: string, message: string, fields?: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}
