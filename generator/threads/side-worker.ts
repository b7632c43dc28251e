/** Worker thread: runs side jobs in the order they come and posts each result (or error) back under its id. */
import { parentPort, workerData } from "node:worker_threads";
import { enableCompileCache } from "../cache/compile-cache.js";
import type { SideJob, SideResult } from "./side-jobs.js";

// The cache is on before the jobs' dependencies load; messages wait in the port meanwhile.
const settings: { compileCache?: boolean; warm?: boolean } | undefined = workerData;
if (settings?.compileCache) enableCompileCache();
const { runSideJob, warmUp } = await import("./side-jobs.js");
// A thread started early loads what its jobs run on while the main thread reads the document.
if (settings?.warm) await warmUp().catch(() => {});
parentPort?.postMessage({ ready: true });

parentPort?.on("message", ({ id, job, stop }: { id: number; job: SideJob; stop?: true }) => {
  // Ending the thread by closing its port (not terminating it) lets the compile cache be saved on the way out.
  if (stop) return parentPort?.close();
  runSideJob(job).then(
    (result: SideResult) => parentPort?.postMessage({ id, result }),
    (error: unknown) => parentPort?.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
