import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";
import { silentLogger } from "../../runtime/base/logger.js";
import { parseSearchArguments, startSearchServer } from "../../search/command.js";
import { connectClient } from "./memos-server.js";

export const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
export const MEMOS = new URL("../../examples/memos/openapi.yaml", import.meta.url).pathname;
export const DOCKER = `${FIXTURES}docker-engine/swagger.yaml`;
export const GALAXY = `${FIXTURES}scalar-galaxy/openapi.yaml`;
export const MUSEUM = `${FIXTURES}redocly-museum/openapi.yaml`;
/** The four shared OpenAPI documents, by the names the tests load them under. */
export const SHARED_DOCUMENTS: [name: string, path: string][] = [
  ["memos", MEMOS],
  ["docker", DOCKER],
  ["galaxy", GALAXY],
  ["museum", MUSEUM],
];
/** Search-server arguments letting load_openapi read the test fixtures and the examples (and any other folders). */
export const fileRoots = (...more: string[]) =>
  [FIXTURES, new URL("../../examples", import.meta.url).pathname, ...more].flatMap((root) => ["--files-root", root]);

/** Starts the search server in-process on a free loopback port with CLI-style arguments. */
export async function startSearch(args: string[] = []) {
  return startSearchServer(parseSearchArguments(["--port", "0", ...args]), silentLogger);
}

/** Calls a tool and returns its structured content, whether it failed, and its text. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? "";
  return { structured: result.structuredContent as Record<string, unknown>, isError: result.isError === true, text };
}

/** Loads documents through load_openapi, each expected to load. */
export async function loadApis(client: Client, documents: readonly (readonly [name: string, url: string])[]) {
  for (const [name, url] of documents) {
    const loaded = await callTool(client, "load_openapi", { name, url });
    expect(loaded.isError, loaded.text).toBe(false);
  }
}

/** One 2026-07-28 `tools/call` (no session) with its body as written, answered as text. */
export async function modernToolCall(url: URL, name: string, body: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body,
  });
  return response.text();
}

/** The `_meta` a 2026-07-28 request carries, as JSON text. */
export const MODERN_META =
  '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}';

export { connectClient };
