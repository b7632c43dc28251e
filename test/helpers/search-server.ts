import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { silentLogger } from "../../runtime/logger.js";
import { parseSearchArguments, startSearchServer } from "../../search/command.js";
import { connectClient } from "./memos-server.js";

export const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
export const MEMOS = new URL("../../examples/memos/openapi.yaml", import.meta.url).pathname;
export const DOCKER = `${FIXTURES}docker-engine/swagger.yaml`;
export const GALAXY = `${FIXTURES}scalar-galaxy/openapi.yaml`;
export const MUSEUM = `${FIXTURES}redocly-museum/openapi.yaml`;

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

export { connectClient };
