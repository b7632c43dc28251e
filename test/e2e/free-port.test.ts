import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { ephemeralRange, freePort, sliceFor } from "../../scripts/free-port.js";

describe("free ports for the servers tests start", () => {
  it("each worker has its own slice, outside the kernel's ephemeral range", () => {
    const ephemeral: [number, number] = [32_768, 60_999];
    const slices = [0, 1, 2, 3, 4, 5, 6, 7].map((pool) => sliceFor(ephemeral, pool) as [number, number]);
    const ports = slices.flatMap(([first, size]) => [first, first + size - 1]);
    for (const port of ports) expect(port < 32_768 || port > 60_999, String(port)).toBe(true);
    for (const [index, [first]] of slices.entries())
      if (index > 0) expect(first).toBeGreaterThan((slices[index - 1] as number[])[0] as number);
    expect(sliceFor(ephemeral, 9)).toEqual(sliceFor(ephemeral, 1));
    // A range that leaves no room below takes the ports above; one that leaves none at all falls back to listen(0).
    expect((sliceFor([10_100, 60_999], 1) as number[])[0]).toBeGreaterThan(60_999);
    expect(sliceFor([10_100, 65_000], 1)).toBeUndefined();
  });

  it("never hands out a port twice, nor one the kernel gives listen(0)", async () => {
    const [low, high] = ephemeralRange();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const ports = new Set<number>();
    for (let count = 0; count < 100; count++) ports.add(await freePort());
    expect(ports.size).toBe(100);
    for (const port of ports) expect(port < low || port > high, String(port)).toBe(true);
    expect(ports.has((taken.address() as { port: number }).port)).toBe(false);
    await new Promise((resolve) => taken.close(resolve));
  });
});
