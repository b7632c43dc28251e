import { readFile } from "node:fs/promises";
import { runInNewContext } from "node:vm";

/** Bytes of a value as JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/** `tools/list` payload size in bytes and estimated tokens (about 4 bytes of JSON per token). */
export function listSize(tools: readonly unknown[]): { bytes: number; tokens: number } {
  const bytes = jsonBytes({ tools });
  return { bytes, tokens: Math.round(bytes / 4) };
}

/**
 * The tools openapi-mcp-generator's server lists, read from its generated `src/index.ts`: the `toolDefinitionMap`
 * literal, evaluated in an empty context, mapped as its server maps it (name, description, inputSchema).
 */
export async function peerTools(indexTs: string): Promise<{ name: string; description: string; inputSchema: unknown }[]> {
  const source = await readFile(indexTs, "utf8");
  const start = source.indexOf("new Map([", source.indexOf("const toolDefinitionMap"));
  const end = source.indexOf("\n]);", start);
  if (start < 0 || end < 0) throw new Error(`no toolDefinitionMap in ${indexTs}`);
  const entries = runInNewContext(`[${source.slice(start + "new Map([".length, end)}]`, {}, { timeout: 10_000 }) as [
    string,
    { name: string; description: string; inputSchema: unknown },
  ][];
  return entries.map(([, def]) => ({ name: def.name, description: def.description, inputSchema: def.inputSchema }));
}
