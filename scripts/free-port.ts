import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * Loopback ports for the servers a test or a script starts, where the port must be known before the server starts.
 *
 * A port the kernel hands out for `listen(0)` is free only until someone else takes it: another test's server listening
 * on port 0, or another worker's `freePort()`, can take it before the server we meant it for starts, and the test then
 * talks to the wrong server. So ports come from outside the kernel's ephemeral range (what `listen(0)` and outgoing
 * connections draw from), each vitest worker from its own slice, and no port twice from one process.
 */

/** The slices the range is cut into: one per vitest worker (VITEST_POOL_ID counts from 1), slice 0 for scripts. */
const SLICES = 8;
/** The lowest port handed out: below are the ports services commonly configure. */
const LOWEST = 10_000;
/** The fewest ports a slice must hold; with fewer, ports come from `listen(0)` as before. */
const SMALLEST_SLICE = 200;

const handedOut = new Set<number>();

/** The kernel's ephemeral port range (Linux), or the usual default where it cannot be read. */
export function ephemeralRange(): [low: number, high: number] {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low as number, high as number];
  } catch {}
  return [32_768, 60_999];
}

/** A worker's slice of the ports outside an ephemeral range, or undefined when there is no room for one. */
export function sliceFor([low, high]: [number, number], pool: number): [first: number, size: number] | undefined {
  const below = low - LOWEST;
  const above = 65_535 - high;
  const [start, length] = below >= above ? [LOWEST, below] : [high + 1, above];
  const size = Math.floor(length / SLICES);
  if (size < SMALLEST_SLICE) return undefined;
  return [start + (pool % SLICES) * size, size];
}

/** Whether nothing listens on a loopback port now. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A port the kernel picks for `listen(0)`: the fallback where no slice fits. */
function anyPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A free loopback port, known before the server that will listen on it starts. */
export async function freePort(): Promise<number> {
  const range = sliceFor(ephemeralRange(), Number(process.env.VITEST_POOL_ID ?? 0));
  if (!range) return anyPort();
  const [first, size] = range;
  const offset = Math.floor(Math.random() * size);
  for (let step = 0; step < size; step++) {
    const port = first + ((offset + step) % size);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await bindable(port)) return port;
  }
  return anyPort();
}
