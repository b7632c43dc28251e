import { isRecord } from "./own-property.js";

/** JSON-RPC "Invalid params" (the SDK's `ErrorCode.InvalidParams`), without loading the SDK's schemas to name it. */
const INVALID_PARAMS = -32602;

/**
 * A JSON-RPC "invalid params" error. The SDK sends a thrown error's `code` and `message` as they are; `McpError`
 * would prefix its own message with "MCP error -32602:", which clients then prefix again.
 */
export function invalidParams(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: INVALID_PARAMS });
}

/** The JSON-RPC error object for a thrown error, as the SDK's `Protocol` writes it (its code when it has one). */
export function rpcErrorOf(error: unknown): { code: number; message: string; data?: unknown } {
  const fields = isRecord(error) ? error : {};
  const code = Number.isSafeInteger(fields.code) ? Number(fields.code) : -32603;
  const message = error instanceof Error && error.message ? error.message : "Internal error";
  return { code, message, ...(fields.data !== undefined ? { data: fields.data } : {}) };
}
