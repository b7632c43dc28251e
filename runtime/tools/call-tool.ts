import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { namedCaller } from "../base/audit.js";
import { isRecord } from "../base/own-property.js";
import { requestScope } from "../base/request-scope.js";
import type { ToolDefinition } from "../base/tool.js";
import { bodyFields, describeUnknown } from "../call/body-fields.js";
import { type CallerCredentials, CredentialError } from "../call/credentials.js";
import { FileArgumentError } from "../call/file-argument.js";
import { ServerParameterError } from "../call/server-parameters.js";
import { fetchUpstream } from "../call/upstream.js";
import { ArgumentError, buildUpstreamRequest } from "../call/upstream-request.js";
import { errorResult, httpErrorMessage } from "../result/result.js";
import { shapeResponse } from "../result/shape-result.js";
import { describeErrors, type ToolValidators } from "../schema/validation.js";
import { confirmCall } from "./confirmation.js";
import type { CallingClient, ToolRuntime } from "./tool-runtime-contract.js";
import { missingScopes } from "./tool-scopes.js";

/** One call of a tool: what was called, with which arguments, by whom, on which runtime. */
export interface ToolCall {
  /** The server's upstream settings, credentials and logger. */
  runtime: ToolRuntime;
  tool: ToolDefinition;
  /** The tool's compiled validators (from `runtime.validators`). */
  validators: ToolValidators;
  args: Record<string, unknown>;
  /** The caller's Authorization and allow-listed headers. */
  caller: CallerCredentials;
  /** What the calling client can do beyond the call: asking its user to confirm, where the tool wants that. */
  client?: CallingClient;
}

/** What one call came to, for its log line. */
interface CallRecord {
  outcome:
    | "ok"
    | "invalid-response"
    | "invalid-arguments"
    | "upstream-error"
    | "timeout"
    | "too-large"
    | "unreachable"
    | "redirect"
    | "auth-failed"
    | "server-config"
    | "declined"
    | "unconfirmed"
    | "input-required"
    | "failed";
  status?: number;
  reason?: string;
  /** A tool the user confirms ran unasked: the client could not be asked, and the operator allows it. */
  confirmation?: "skipped";
}

/**
 * Validates arguments, calls the upstream operation and shapes the MCP result; never throws. Every call is one log line
 * (tool, upstream method and status, duration): `info` when it succeeded, `warn` with the reason when it did not.
 */
export async function executeTool(call: ToolCall): Promise<CallToolResult> {
  const { tool, runtime } = call;
  const started = performance.now();
  const signedIn = requestScope().signedIn;
  const missing = signedIn ? missingScopes(tool, runtime.auth, signedIn.scopes) : [];
  // A call that passed the transport's scope check (a program's, an operation called by name) is checked here too.
  const { result, record } =
    missing.length > 0
      ? {
          result: errorResult(
            `${tool.name} needs the scope${missing.length === 1 ? "" : "s"} ${missing.join(" ")}, which your sign-in did not grant; sign in again with ${missing.length === 1 ? "it" : "them"}`,
          ),
          record: { outcome: "auth-failed" as const, reason: `missing scopes: ${missing.join(" ")}` },
        }
      : await callOnce(call);
  const fields = {
    tool: tool.name,
    ...namedCaller(signedIn),
    method: tool.http.method,
    path: tool.http.path,
    ...(record.status !== undefined ? { status: record.status } : {}),
    outcome: record.outcome,
    ...(record.confirmation ? { confirmation: record.confirmation } : {}),
    durationMs: Math.round(performance.now() - started),
    ...(record.reason !== undefined ? { reason: record.reason } : {}),
  };
  if (record.outcome === "ok" || record.outcome === "input-required") runtime.log.info("tool call", fields);
  else if (record.outcome === "failed") runtime.log.error("tool call", fields);
  else runtime.log.warn("tool call", fields);
  return result;
}

/**
 * The body as it is sent, per the contract's tolerance: read-only fields dropped at every depth; fields the document
 * names nowhere forwarded (its schema is open) with a note for the likely typos, or refused where the operator closed
 * the body. Undefined `args` when a closed body refused them, with why.
 */
function tolerated(
  tool: ToolDefinition,
  args: Record<string, unknown>,
): { args?: Record<string, unknown>; note?: string; refused?: string } {
  const body = tool.http.body;
  const schema = tool.inputSchema.properties;
  const bodySchema = isRecord(schema) ? schema.body : undefined;
  if (
    !body ||
    args.body === undefined ||
    !isRecord(bodySchema) ||
    (body.kind !== "json" && body.kind !== "form" && body.kind !== "multipart")
  )
    return { args };
  const defs = isRecord(tool.inputSchema.$defs) ? tool.inputSchema.$defs : {};
  const read = bodyFields(args.body, bodySchema, defs, body.readOnly ?? []);
  if (body.closed && read.unknown.length > 0) return { refused: describeUnknown(read.unknown, true) };
  const typos = read.unknown.filter((field) => field.meant !== undefined);
  return { args: { ...args, body: read.sent }, ...(typos.length > 0 ? { note: describeUnknown(typos, false) } : {}) };
}

/** The result with a note beside what the upstream answered (never instead of it). */
function withNote(result: CallToolResult, note: string | undefined): CallToolResult {
  return note === undefined ? result : { ...result, content: [...result.content, { type: "text", text: note }] };
}

async function callOnce(call: ToolCall): Promise<{ result: CallToolResult; record: CallRecord }> {
  const { tool, validators, args } = call;
  if (!validators.input(args)) {
    const message = `Invalid arguments for ${tool.name}: ${describeErrors(validators.input.errors, 5, tool.inputSchema)}`;
    return { result: errorResult(message), record: { outcome: "invalid-arguments", reason: message } };
  }
  const body = tolerated(tool, args);
  if (!body.args) {
    const message = `Invalid arguments for ${tool.name}: ${body.refused}`;
    return { result: errorResult(message), record: { outcome: "invalid-arguments", reason: message } };
  }
  const gate = await confirmCall(call.runtime, tool, body.args, call.client);
  if (!gate.go) return { result: gate.result, record: { outcome: gate.outcome, reason: gate.reason } };
  const done = await callUpstream({ ...call, args: body.args });
  const record: CallRecord = gate.skipped ? { ...done.record, confirmation: "skipped" } : done.record;
  return { record, result: withNote(done.result, body.note) };
}

async function callUpstream({
  runtime,
  tool,
  validators,
  args,
  caller,
}: ToolCall): Promise<{ result: CallToolResult; record: CallRecord }> {
  const { upstream, credentials: store } = runtime;
  const fail = (outcome: CallRecord["outcome"], message: string, reason = message, status?: number) => ({
    result: errorResult(message),
    record: { outcome, reason, ...(status !== undefined ? { status } : {}) },
  });
  try {
    let request: Awaited<ReturnType<typeof buildUpstreamRequest>>;
    try {
      request = await buildUpstreamRequest(tool.http, runtime.parameters.apply(tool, args), upstream.baseUrl, upstream);
    } catch (error) {
      if (error instanceof ArgumentError || error instanceof FileArgumentError)
        return fail("invalid-arguments", `Invalid arguments for ${tool.name}: ${error.message}`);
      throw error;
    }
    const readMode = tool.http.response === "binary" ? "blob" : tool.http.response === "text" ? "text" : "buffer";
    const send = async () => {
      const applied = await store.apply(tool.security, caller);
      const url = new URL(request.url);
      for (const [name, value] of applied.query) url.searchParams.append(name, value);
      return fetchUpstream({ ...request, url }, { ...upstream, credentials: applied.headers, readMode });
    };
    let outcome = await send();
    if (outcome.kind === "response" && outcome.status === 401 && store.usesTokenEndpoint(tool.security)) {
      store.invalidate(tool.security);
      outcome = await send();
    }
    switch (outcome.kind) {
      case "unreachable":
        return fail(
          "unreachable",
          `The upstream API is unreachable (${tool.http.method} ${tool.http.path}: ${unreachableCause(outcome.detail)}); the server's operator should check API_BASE_URL.`,
          `${outcome.detail} (upstream ${upstream.baseUrl.origin}; check API_BASE_URL)`,
        );
      case "timeout":
        return fail("timeout", `The upstream API did not answer within ${outcome.timeoutMs} ms.`);
      case "too-large":
        return fail("too-large", `The upstream response is larger than the ${outcome.limitBytes}-byte limit.`);
      case "redirect":
        return fail("redirect", `The upstream API redirected the request too often or elsewhere (${outcome.detail}).`);
      case "response": {
        const { status } = outcome;
        if (status < 200 || status > 299) {
          const message = httpErrorMessage(status, outcome.body.toString("utf8"), outcome.retryAfter);
          return { result: errorResult(message), record: { outcome: "upstream-error", status, reason: message } };
        }
        const shaped = shapeResponse(tool, validators, outcome, runtime.log, `${request.url.origin}${request.url.pathname}`);
        return {
          result: shaped.result,
          record: shaped.problem ? { outcome: "invalid-response", status, reason: shaped.problem } : { outcome: "ok", status },
        };
      }
    }
  } catch (error) {
    if (error instanceof CredentialError) return fail("auth-failed", `Authentication failed: ${error.message}`);
    if (error instanceof ServerParameterError) return fail("server-config", `This server cannot call ${tool.name}: ${error.message}.`);
    return {
      result: errorResult(`Internal error while calling ${tool.name}.`),
      record: { outcome: "failed", reason: error instanceof Error ? (error.stack ?? error.message) : String(error) },
    };
  }
}

/** Why a connection failed, in words a caller may see (the error's code, never the host it was for). */
function unreachableCause(detail: string): string {
  const code = /\b(E[A-Z]{2,}[A-Z_]*|UND_ERR_[A-Z_]+|CERT_[A-Z_]+)\b/.exec(detail)?.[1];
  const words: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "its host name does not resolve",
    EAI_AGAIN: "its host name could not be resolved now",
    ECONNRESET: "the connection was reset",
    EHOSTUNREACH: "its host cannot be reached",
    ENETUNREACH: "its network cannot be reached",
    ETIMEDOUT: "the connection timed out",
    CERT_HAS_EXPIRED: "its TLS certificate has expired",
  };
  return code === undefined ? "the connection failed" : `${words[code] ?? "the connection failed"}, ${code}`;
}
