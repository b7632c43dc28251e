import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const PEAK_RSS = fileURLToPath(new URL("./peak-rss.js", import.meta.url));

/** Wall time, CPU time, peak RSS and output of one process run. */
export interface Measured {
  ms: number;
  /** User and system CPU time of every thread. */
  cpuMs: number;
  rssMiB: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node script in a child process and measures it. */
export function measureNode(
  script: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {},
): Promise<Measured> {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", PEAK_RSS, script, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => {
      const rss = Number(/BENCH_MAX_RSS_KB=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      const cpu = Number(/BENCH_CPU_US=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      resolve({ ms: performance.now() - start, cpuMs: cpu / 1000, rssMiB: rss / 1024, code, stdout, stderr });
    });
  });
}
