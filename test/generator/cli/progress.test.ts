import { describe, expect, it } from "vitest";
import { Progress } from "../../../generator/base/index.js";

/** A stand-in for stderr that records what is written, as a terminal or not. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream };
}

describe("progress lines", () => {
  it("are written on a terminal, one a stage, with the time so far", () => {
    const terminal = stream(true);
    const progress = new Progress(terminal.stream, true);
    progress.stage("building 1223 tools");
    progress.done();
    expect(terminal.written).toHaveLength(2);
    expect(terminal.written[0]).toMatch(/^… building 1223 tools \(\d+\.\d s\)\n$/);
  });

  it("stay silent when stderr is not a terminal, or with --quiet", () => {
    const piped = stream(false);
    new Progress(piped.stream, true).stage("x");
    const quiet = stream(true);
    new Progress(quiet.stream, false).stage("x");
    expect([...piped.written, ...quiet.written]).toEqual([]);
  });
});
