/** Worker thread: runs side jobs in the order they come and posts each text (or error) back under its id. */
import { parentPort, workerData } from "node:worker_threads";
import { enableCompileCache } from "../cache/compile-cache.js";
import type { SideJob } from "./side-jobs.js";

// The cache is on before the jobs' dependencies load; messages wait in the port meanwhile.
const settings: { compileCache?: boolean } | undefined = workerData;
if (settings?.compileCache) enableCompileCache();
const { runSideJob } = await import("./side-jobs.js");

parentPort?.on("message", ({ id, job, stop }: { id: number; job: SideJob; stop?: true }) => {
  // Ending the thread by closing its port (not terminating it) lets the compile cache be saved on the way out.
  if (stop) return parentPort?.close();
  runSideJob(job).then(
    (text) => parentPort?.postMessage({ id, text }),
    (error: unknown) => parentPort?.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
