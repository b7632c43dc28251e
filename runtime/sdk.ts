/**
 * The runtime's parts built on the MCP SDK's server (`oapi-mcp-gen-runtime/sdk`). Kept out of the main entry so a
 * generated server starts without loading the SDK; it loads them when a request first needs them.
 */
export { checkArgumentDepth } from "./argument-depth.js";
export { checkedCallParams, LooseCallToolRequestSchema } from "./call-request.js";
export { createMcpServer } from "./mcp-server.js";
export { serveModernOnStdio } from "./modern-stdio.js";
export { type ClosableModernHost, sdkModernHost } from "./sdk-modern-host.js";
export { SessionHttpHandler } from "./session-http.js";
