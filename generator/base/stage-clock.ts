/** One timed stage: its name and wall-clock milliseconds. */
interface Stage {
  name: string;
  ms: number;
}

/** Times the stages of a run for `--timings`; stages that run side by side are timed each on its own. */
export class StageClock {
  private readonly stages: Stage[] = [];
  private readonly startedAt = performance.now();
  private readonly cpuAtStart = process.cpuUsage();

  /** Runs `work` as the stage `name` and records how long it took. */
  async time<T>(name: string, work: () => T | Promise<T>): Promise<T> {
    const start = performance.now();
    try {
      return await work();
    } finally {
      this.stages.push({ name, ms: performance.now() - start });
    }
  }

  /** Runs synchronous `work` as the stage `name` and records how long it took. */
  timeSync<T>(name: string, work: () => T): T {
    const start = performance.now();
    try {
      return work();
    } finally {
      this.stages.push({ name, ms: performance.now() - start });
    }
  }

  /** The stages in the order they finished, then the run's wall time and CPU time (every thread). */
  report(): string {
    const cpu = process.cpuUsage(this.cpuAtStart);
    const width = Math.max(...this.stages.map((stage) => stage.name.length), "total, CPU (all threads)".length);
    const line = (name: string, ms: number) => `  ${name.padEnd(width)}  ${ms.toFixed(0).padStart(7)} ms`;
    return [
      "timings (stages marked ‖ run side by side):",
      ...this.stages.map((stage) => line(stage.name, stage.ms)),
      line("total, wall clock", performance.now() - this.startedAt),
      line("total, CPU (all threads)", (cpu.user + cpu.system) / 1000),
    ].join("\n");
  }
}

/** Times nothing: what a run without `--timings` uses. */
export const NO_CLOCK = {
  time: <T>(_name: string, work: () => T | Promise<T>): Promise<T> => Promise.resolve(work()),
  timeSync: <T>(_name: string, work: () => T): T => work(),
};

/** What the pipeline needs of a clock. */
export type Clock = Pick<StageClock, "time" | "timeSync">;
