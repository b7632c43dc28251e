/** What the stateless endpoint needs from the MCP SDK: loaded on first use, so start-up does not wait for it. */
export interface StatelessSdk {
  createMcpServer: typeof import("./mcp-server.js").createMcpServer;
  StreamableHTTPServerTransport: typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js").StreamableHTTPServerTransport;
}

let loading: Promise<StatelessSdk> | undefined;

/** The SDK parts, imported once, when the first request the fast path does not answer (usually `initialize`) needs them. */
export function loadStatelessSdk(): Promise<StatelessSdk> {
  loading ??= Promise.all([import("./mcp-server.js"), import("@modelcontextprotocol/sdk/server/streamableHttp.js")]).then(
    ([{ createMcpServer }, { StreamableHTTPServerTransport }]) => ({ createMcpServer, StreamableHTTPServerTransport }),
  );
  return loading;
}
