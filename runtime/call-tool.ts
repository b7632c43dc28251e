import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type CallerCredentials, CredentialError, type CredentialStore } from "./credentials.js";
import { FileArgumentError } from "./file-argument.js";
import type { Logger } from "./logger.js";
import { decodeJson, errorResult, httpErrorMessage, successResult, wrapStructuredContent } from "./result.js";
import type { ToolDefinition } from "./tool.js";
import { fetchUpstream, type UpstreamOutcome } from "./upstream.js";
import { ArgumentError, buildUpstreamRequest, type RequestContext } from "./upstream-request.js";
import { describeErrors, type ToolValidators } from "./validation.js";

/** How the runtime reaches the upstream API. */
export interface UpstreamSettings {
  /** Base URL the operation paths are appended to; its origin is the only one that receives credentials. */
  baseUrl: URL;
  /** @default 30000 */
  timeoutMs: number;
  /** @default 10485760 */
  maxResponseBytes: number;
  /** Injected for tests; the global `fetch` otherwise. */
  fetch?: typeof fetch;
  /** Where `{ path }` file arguments may be read from (`UPLOAD_DIR`), and the upload cap. */
  files?: RequestContext;
}

/** Per-call facts taken from the MCP request: the caller's Authorization and allow-listed headers. */
export type CallContext = CallerCredentials;

/** What executing a tool needs from the server (a `ToolRuntime` provides it). */
export interface ExecutionEnvironment {
  upstream: UpstreamSettings;
  credentials: CredentialStore;
  log: Logger;
}

/** Validates arguments, calls the upstream operation and shapes the MCP result; never throws. */
export async function executeTool(
  tool: ToolDefinition,
  validators: ToolValidators,
  args: Record<string, unknown>,
  context: CallContext,
  environment: ExecutionEnvironment,
): Promise<CallToolResult> {
  const { upstream: settings, credentials: store, log } = environment;
  try {
    if (!validators.input(args)) return errorResult(`Invalid arguments for ${tool.name}: ${describeErrors(validators.input.errors)}`);
    let request: Awaited<ReturnType<typeof buildUpstreamRequest>>;
    try {
      request = await buildUpstreamRequest(tool.http, args, settings.baseUrl, settings.files);
    } catch (error) {
      if (error instanceof ArgumentError || error instanceof FileArgumentError)
        return errorResult(`Invalid arguments for ${tool.name}: ${error.message}`);
      throw error;
    }
    const readMode = tool.http.response === "binary" ? "digest" : tool.http.response === "text" ? "text" : "buffer";
    const send = async () => {
      const applied = await store.apply(tool.security, context);
      const url = new URL(request.url);
      for (const [name, value] of applied.query) url.searchParams.append(name, value);
      return fetchUpstream({ ...request, url }, { ...settings, credentials: applied.headers, readMode });
    };
    let outcome = await send();
    if (outcome.kind === "response" && outcome.status === 401 && store.usesTokenEndpoint(tool.security)) {
      store.invalidate(tool.security);
      outcome = await send();
    }
    switch (outcome.kind) {
      case "unreachable":
        log.warn("upstream unreachable", { tool: tool.name, detail: outcome.detail });
        return errorResult(`The upstream API is unreachable (${tool.http.method} ${tool.http.path}).`);
      case "timeout":
        return errorResult(`The upstream API did not answer within ${outcome.timeoutMs} ms.`);
      case "too-large":
        return errorResult(`The upstream response is larger than the ${outcome.limitBytes}-byte limit.`);
      case "redirect":
        log.warn("upstream redirect refused", { tool: tool.name, detail: outcome.detail });
        return errorResult(`The upstream API redirected the request too often or elsewhere (${outcome.detail}).`);
      case "response":
        return shapeResponse(tool, validators, outcome, log);
    }
  } catch (error) {
    if (error instanceof CredentialError) return errorResult(`Authentication failed: ${error.message}`);
    log.error("tool call failed", { tool: tool.name, error: error instanceof Error ? error.stack : String(error) });
    return errorResult(`Internal error while calling ${tool.name}.`);
  }
}

function shapeResponse(
  tool: ToolDefinition,
  validators: ToolValidators,
  outcome: Extract<UpstreamOutcome, { kind: "response" }>,
  log: Logger,
): CallToolResult {
  const { status, contentType } = outcome;
  const text = outcome.body.toString("utf8");
  if (status < 200 || status > 299) return errorResult(httpErrorMessage(status, text));
  let structured: Record<string, unknown>;
  if (tool.http.response === "binary") {
    structured = { contentType: contentType || "application/octet-stream", size: outcome.size, sha256: outcome.sha256 ?? "" };
  } else if (tool.http.response === "text") {
    structured = outcome.truncated
      ? { result: `${text}… [truncated: the response exceeded ${outcome.body.length} bytes]`, truncated: true }
      : { result: text };
  } else {
    let value: unknown;
    if (text.trim() !== "") {
      const decoded = decodeJson(text);
      if (decoded.ok) value = decoded.value;
      else if (/^text\//i.test(contentType)) value = text;
      else {
        log.warn("upstream body is not JSON", { tool: tool.name, status, contentType });
        return errorResult(`The upstream API returned a body that is not valid JSON (status ${status}).`);
      }
    }
    if (tool.http.response === "empty" && isEmptyObject(value)) value = undefined;
    structured = tool.http.wrapResult ? { result: value } : wrapStructuredContent(value);
  }
  if (!validators.output(structured)) {
    const reason = describeErrors(validators.output.errors);
    log.warn("upstream response does not match the output schema", { tool: tool.name, reason });
    return errorResult(`The upstream response does not match the output schema of ${tool.name}: ${reason}`, JSON.stringify(structured));
  }
  return successResult(structured);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
