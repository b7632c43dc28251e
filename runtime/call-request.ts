import { type CallToolRequest, CallToolRequestSchema, RequestSchema } from "@modelcontextprotocol/sdk/types.js";

/**
 * `tools/call` with its params checked only as an object. The SDK's `Server` checks the whole request in its
 * tools/call wrapper and answers -32602 Invalid params; registered with the strict schema, bad `arguments` would
 * fail the outer parse first and come back as -32603 Internal error.
 */
export const LooseCallToolRequestSchema = CallToolRequestSchema.extend({ params: RequestSchema.shape.params });

/** The params of a request the SDK's tools/call wrapper has already checked against the strict schema. */
export function checkedCallParams(request: { params?: unknown }): CallToolRequest["params"] {
  return request.params as CallToolRequest["params"];
}
