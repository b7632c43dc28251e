import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";

/**
 * A JSON-RPC "invalid params" error. The SDK sends a thrown error's `code` and `message` as they are; `McpError`
 * would prefix its own message with "MCP error -32602:", which clients then prefix again.
 */
export function invalidParams(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: ErrorCode.InvalidParams });
}
