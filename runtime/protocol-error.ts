/** JSON-RPC "Invalid params" (the SDK's `ErrorCode.InvalidParams`), without loading the SDK's schemas to name it. */
const INVALID_PARAMS = -32602;

/**
 * A JSON-RPC "invalid params" error. The SDK sends a thrown error's `code` and `message` as they are; `McpError`
 * would prefix its own message with "MCP error -32602:", which clients then prefix again.
 */
export function invalidParams(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: INVALID_PARAMS });
}
