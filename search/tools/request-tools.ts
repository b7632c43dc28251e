import { excerpt } from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../../openapi/document/index.js";
import type { OperationModel } from "../../openapi/model/index.js";
import { findOperation, findPath, graphqlField, type LoadedApi, ToolFailure } from "../documents/index.js";
import { type BuiltRequest, buildRequest, callEndpoint, curlCommand, fetchCode, httpMessage } from "../requests/index.js";
import { codeBlock, fieldsMarkdown, tableMarkdown } from "../views/index.js";
import {
  answer,
  formatArg,
  input,
  MAX_LENGTH,
  methodArg,
  methodOf,
  nameArg,
  type SearchTool,
  stringArg,
  type ToolContext,
  text,
} from "./tool-kit.js";

/** The arguments that pick an operation and give its values, shared by both tools. */
const REQUEST_ARGS = {
  name: nameArg,
  operation_id: text(MAX_LENGTH.identifier, "The operationId (or give method and path)."),
  method: methodArg,
  path: text(MAX_LENGTH.path, "The path template, e.g. /users/{id} (with method, instead of operation_id)."),
  parameters: {
    type: "object",
    maxProperties: 100,
    description: "Parameter values by name (path, query, header and cookie parameters).",
  },
  body: { description: "The request body (JSON); without it, one is built from the schema's examples and defaults." },
  base_url: text(
    MAX_LENGTH.url,
    "Base URL to use instead of the document's first server (an origin alone keeps a relative server path such as /api/v1).",
  ),
};

/** The operation named by operation_id, or by method and path. */
function operationOf(api: LoadedApi, args: Record<string, unknown>): OperationModel {
  const id = stringArg(args, "operation_id");
  if (id !== undefined) return findOperation(api, id);
  const method = methodOf(args);
  const pathArg = stringArg(args, "path");
  if (method === undefined || pathArg === undefined) throw new ToolFailure("give operation_id, or method and path");
  const path = findPath(api, pathArg);
  const found = api.operations.find((record) => record.path === path && record.method === method);
  if (found) return found;
  const methods = api.operations.filter((record) => record.path === path).map((record) => record.method.toUpperCase());
  throw new ToolFailure(
    `${method.toUpperCase()} ${excerpt(path)} is not an operation; ${path} has ${methods.join(", ") || "no operations"}`,
  );
}

/** Builds the request the arguments describe. */
async function built(
  args: Record<string, unknown>,
  { catalogue }: ToolContext,
): Promise<{ api: LoadedApi; operation: OperationModel; request: BuiltRequest }> {
  const api = await catalogue.get(String(args.name));
  const operation = operationOf(api, args);
  const parameters = typeof args.parameters === "object" && args.parameters !== null ? (args.parameters as Record<string, unknown>) : {};
  const request = await buildRequest(api, operation, {
    parameters,
    ...(args.body !== undefined ? { body: args.body as JsonObject } : {}),
    ...(stringArg(args, "base_url") !== undefined ? { baseUrl: stringArg(args, "base_url") } : {}),
  });
  return { api, operation, request };
}

/** `build_request` and, when the operator enables it, `call_endpoint`. */
export const REQUEST_TOOLS: SearchTool[] = [
  {
    name: "build_request",
    title: "Build a request for an operation",
    description:
      "A ready request for one operation: method, URL (server and encoded parameters), headers (with where credentials go), " +
      "and a JSON body from the schema's examples and defaults, as curl, as fetch code and as an HTTP message. " +
      "Values that could not be inferred are listed in `unresolved` and appear as {placeholders}.",
    inputSchema: input({ ...REQUEST_ARGS, format: formatArg }, ["name"]),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    async handler(args, context) {
      const { operation, request } = await built(args, context);
      const [curl, fetch, http] = [curlCommand(request), fetchCode(request), httpMessage(request)];
      const structured: JsonObject = {
        operation_id: operation.operationId ?? null,
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: request.body,
        credentials: request.credentials.map((slot) => ({ ...slot })),
        unresolved: request.unresolved.map((mark) => ({ ...mark })),
        curl,
        fetch,
        http,
      };
      return answer(args, structured, () =>
        fieldsMarkdown(
          `${request.method} ${operation.path}`,
          [
            ["operationId", operation.operationId ?? ""],
            ["url", request.url],
          ],
          tableMarkdown(
            "Unresolved values",
            ["where", "name", "reason"],
            request.unresolved.map((mark) => [mark.where, mark.name, mark.reason]),
          ),
          `### curl\n\n${codeBlock("sh", curl)}`,
          `### fetch\n\n${codeBlock("js", fetch)}`,
          `### HTTP\n\n${codeBlock("http", http.replace(/\r\n/g, "\n"))}`,
        ),
      );
    },
  },
  {
    name: "call_endpoint",
    title: "Call an operation",
    description:
      "Builds the request as build_request does and sends it to a host the operator allowed, with the operator's " +
      "credentials for that host (never the caller's), under time and size caps, following no redirect.",
    inputSchema: input({ ...REQUEST_ARGS, format: formatArg }, ["name"]),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async handler(args, context) {
      if (!context.calls) throw new ToolFailure("call_endpoint is off on this server; its operator can enable it with --allow-calls HOST");
      const { operation, request } = await built(args, context);
      // One POST cannot receive what a subscription pushes: sending it would only look like an answer.
      if (graphqlField(operation)?.operationType === "subscription")
        throw new ToolFailure(
          `${operation.operationId} is a GraphQL subscription: its results come over a streaming transport (WebSocket or Server-Sent Events), which call_endpoint does not speak; build_request writes the operation for a client that does`,
        );
      const report = await callEndpoint(request, context.calls);
      const structured: JsonObject = { ...report };
      return answer(args, structured, () =>
        fieldsMarkdown(
          `${report.request.method} ${report.request.url}`,
          [
            ["status", report.status],
            ["content type", report.content_type],
            ["elapsed", `${report.elapsed_ms} ms`],
            ["truncated", report.truncated ? "yes" : "no"],
            ["operator credentials sent", report.credentials_used ? "yes" : "no"],
          ],
          tableMarkdown(
            "Request headers",
            ["header", "value"],
            Object.entries(report.request.headers).map(([header, value]) => [header, value]),
          ),
          `### Body\n\n${codeBlock(typeof report.body === "string" ? "" : "json", typeof report.body === "string" ? report.body : JSON.stringify(report.body, null, 2))}`,
        ),
      );
    },
  },
];
