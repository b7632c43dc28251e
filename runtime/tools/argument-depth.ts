import { invalidParams } from "../base/protocol-error.js";

/** How deep tool arguments may nest: far past any API's real payloads, far short of a validator's stack. */
export const MAX_ARGUMENT_DEPTH = 128;

/** True when a JSON value nests deeper than `limit` arrays and objects; walked without recursion, stopping at the limit. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Refuses (JSON-RPC -32602) tool arguments nested past the limit, before anything walks them recursively. */
export function checkArgumentDepth(name: string, args: unknown): void {
  if (nestsDeeperThan(args, MAX_ARGUMENT_DEPTH))
    throw invalidParams(`Invalid arguments for ${name}: nested deeper than ${MAX_ARGUMENT_DEPTH} levels (this server's limit)`);
}
