/** Stage lines on stderr while a long run works, only when a person is watching (a terminal) and not `--quiet`. */
export class Progress {
  private readonly started = Date.now();
  private readonly enabled: boolean;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    wanted: boolean,
  ) {
    this.enabled = wanted && stream.isTTY === true;
  }

  /** Announces a stage, with the time spent so far. */
  stage(text: string): void {
    if (this.enabled) this.stream.write(`… ${text} (${((Date.now() - this.started) / 1000).toFixed(1)} s)\n`);
  }

  /** Announces the end of the work. */
  done(): void {
    this.stage("done");
  }
}
