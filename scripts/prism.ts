import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { freePort } from "./free-port.js";

const PRISM = join(dirname(createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json")), "dist/index.js");

/** A running Prism mock server. */
export interface PrismMock {
  url: URL;
  process: ChildProcess;
  /** Everything Prism printed (its request-validation reports among it). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `prism mock` for a document on a free loopback port and waits until it listens. */
export async function startPrism(specPath: string, options: { timeoutMs?: number } = {}): Promise<PrismMock> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM, "mock", "-h", "127.0.0.1", "-p", String(port), specPath], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1" },
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (!/Prism is listening/.test(output)) {
    if (child.exitCode !== null) throw new Error(`prism exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`prism did not start in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: new URL(`http://127.0.0.1:${port}`), process: child, output: () => output, stop };
}
