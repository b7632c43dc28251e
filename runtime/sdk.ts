/**
 * The runtime's parts built on the MCP SDK's server (`oapi-mcp-gen-runtime/sdk`). Kept out of the main entry so a
 * generated server starts without loading the SDK; it loads them when a request first needs them.
 */

export { SessionHttpHandler } from "./http/session-http.js";
export { checkedCallParams, LooseCallToolRequestSchema } from "./protocol/call-request.js";
export { createMcpServer } from "./protocol/mcp-server.js";
export { serveModernOnStdio } from "./protocol/modern-stdio.js";
export { type ClosableModernHost, sdkModernHost } from "./protocol/sdk-modern-host.js";
export { checkArgumentDepth } from "./tools/argument-depth.js";
