/** Worker thread: runs side jobs in the order they come and posts each text (or error) back under its id. */
import { parentPort } from "node:worker_threads";
import { runSideJob, type SideJob } from "./side-jobs.js";

parentPort?.on("message", ({ id, job }: { id: number; job: SideJob }) => {
  runSideJob(job).then(
    (text) => parentPort?.postMessage({ id, text }),
    (error: unknown) => parentPort?.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
