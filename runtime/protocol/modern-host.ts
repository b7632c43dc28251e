import type { ToolRuntime } from "../tools/tool-runtime-contract.js";
import { listedForCaller } from "../tools/tool-scopes.js";
import type { ModernHost } from "./modern-exchange.js";
import { callNamedTool } from "./stateless-exchange.js";

const hosts = new WeakMap<ToolRuntime, ModernHost>();

/** A generated server's tools offered to the 2026-07-28 exchange: the same list and calls as the 2025 era's. */
export function modernHostOf(runtime: ToolRuntime): ModernHost {
  let host = hosts.get(runtime);
  if (host === undefined) {
    host = {
      identity: runtime.identity,
      listTools: async () => listedForCaller(runtime),
      callTool: (name, args, headers, rounds) => callNamedTool(runtime, name, args, headers, { rounds }),
    };
    hosts.set(runtime, host);
  }
  return host;
}
