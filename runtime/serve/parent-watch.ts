/** How often the parent is looked for: a getppid() call, cheap enough to make a stopped launcher's server end at once. */
const WATCH_MS = 100;

/** The process that started this one, read when the runtime loads (the launcher may be gone before serving starts). */
const LAUNCHER = process.ppid;

/**
 * Ends the server with its launcher: when `npm start` or `npx` started it and is stopped (Ctrl-C, SIGTERM to npx), npm
 * may exit without passing the signal on, leaving the server running, orphaned. Started by npm (it sets `npm_command`),
 * the server calls `stop` once its parent process is gone (it was re-parented). Started any other way (a shell,
 * systemd, Docker), nothing is watched: `nohup node dist/server.js &` keeps running after its shell ends.
 */
export function endWithLauncher(stop: (reason: string) => void, env: NodeJS.ProcessEnv = process.env): void {
  if (!env.npm_command) return;
  const timer = setInterval(() => {
    if (process.ppid === LAUNCHER) return;
    clearInterval(timer);
    stop("launcher exited");
  }, WATCH_MS);
  timer.unref();
}
