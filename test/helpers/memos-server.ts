import { type Logger, type RunningServer, type ServerEnvironment, silentLogger, startServer } from "oapi-mcp-gen-runtime";
import { serverIdentity, tools } from "../../generated/index.js";

export { connectClient } from "../../scripts/mcp-client.js";

/** A loopback test environment on a free port; anything not given takes a small test default. */
export function testEnvironment(apiBaseUrl: URL, overrides: Partial<ServerEnvironment> = {}): ServerEnvironment {
  return {
    apiBaseUrl,
    host: "127.0.0.1",
    port: 0,
    allowedOrigins: new Set(),
    timeoutMs: 5_000,
    maxResponseBytes: 1024 * 1024,
    maxRequestBytes: 1024 * 1024,
    maxUploadBytes: 1024 * 1024,
    ...overrides,
  };
}

/** Starts the committed generated Memos server in-process on a free loopback port. */
export async function startMemosServer(
  apiBaseUrl: URL,
  overrides: { timeoutMs?: number; allowedOrigins?: string[]; log?: Logger } = {},
): Promise<RunningServer> {
  return startServer({
    identity: serverIdentity,
    tools,
    log: overrides.log ?? silentLogger,
    environment: testEnvironment(apiBaseUrl, {
      allowedOrigins: new Set(overrides.allowedOrigins ?? []),
      timeoutMs: overrides.timeoutMs ?? 5_000,
    }),
  });
}
