import { CallToolRequestSchema, RequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../base/own-property.js";
import { invalidParams } from "../base/protocol-error.js";

/**
 * `tools/call` with its params checked only as an object. The SDK's `Server` checks the whole request in its
 * tools/call wrapper and answers -32602 Invalid params; registered with the strict schema, bad `arguments` would
 * fail the outer parse first and come back as -32603 Internal error.
 */
export const LooseCallToolRequestSchema = CallToolRequestSchema.extend({ params: RequestSchema.shape.params });

/** The tool name and arguments of a request the SDK's tools/call wrapper has already checked against the strict schema. */
export function checkedCallParams(request: { params?: unknown }): { name: string; arguments?: Record<string, unknown> } {
  const { params } = request;
  if (!isRecord(params) || typeof params.name !== "string") throw invalidParams("tools/call needs the name of a tool");
  const { name, arguments: args } = params;
  if (args === undefined) return { name };
  if (!isRecord(args)) throw invalidParams("tools/call arguments must be an object");
  return { name, arguments: args };
}
