import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CreateMessageResultSchema, ElicitResultSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { callerFromHeaders } from "../call/caller.js";
import type { CallerCredentials } from "../call/credentials.js";
import { callByName } from "../tools/call-by-name.js";
import { asksForms, userAnswerOf } from "../tools/confirmation.js";
import type { AskModel, AskUser, CallingClient, ToolRuntime } from "../tools/tool-runtime-contract.js";
import { listedForCaller } from "../tools/tool-scopes.js";
import { checkedCallParams, LooseCallToolRequestSchema } from "./call-request.js";

/** The SDK validator (used only for elicitation answers), built once for all requests. */
const SHARED_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();

/**
 * An SDK low-level `Server` advertising tools only. Each call takes the caller's Authorization and allow-listed
 * headers from its own HTTP request; `fallback` serves transports without one (stdio).
 */
export function createMcpServer(runtime: ToolRuntime, fallback: CallerCredentials = {}): Server {
  const { identity } = runtime;
  const server = new Server(
    { name: identity.name, version: identity.version, ...(identity.title ? { title: identity.title } : {}) },
    {
      capabilities: { tools: { listChanged: false } },
      ...(identity.instructions ? { instructions: identity.instructions } : {}),
      // Without this, every Server (one per stateless request) builds its own Ajv instance.
      jsonSchemaValidator: SHARED_SCHEMA_VALIDATOR,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedForCaller(runtime) }));
  server.setRequestHandler(LooseCallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = checkedCallParams(request);
    const headers = extra.requestInfo?.headers;
    const caller = headers ? callerFromHeaders(headers, runtime.auth.passthrough.headers) : fallback;
    return callByName(runtime, name, args ?? {}, caller, callingClient(runtime, server, extra));
  });
  return server;
}

/** How long one tool call waits for the client's model in all (a search may ask it up to three times). */
export const SAMPLING_BUDGET_MS = 30_000;

/**
 * What the client that sent this call can do for it: ask its model, when it declared sampling in `initialize` and the
 * operator allows it, within the call's budget and never past its cancellation. A stateless exchange has no
 * `initialize` behind it, and so never asks.
 */
export function callingClient(runtime: ToolRuntime, server: Server, extra: RequestExtra, budgetMs = SAMPLING_BUDGET_MS): CallingClient {
  const capabilities = server.getClientCapabilities();
  const askUser = asksForms(capabilities?.elicitation) ? userAsker(extra) : undefined;
  const asking = askUser ? { askUser } : {};
  if (runtime.samplingOff || !capabilities?.sampling) return asking;
  const deadline = Date.now() + budgetMs;
  const askModel: AskModel = async (params) => {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`the ${budgetMs / 1000} s for the model were spent`);
    const answer = await extra.sendRequest({ method: "sampling/createMessage", params }, CreateMessageResultSchema, {
      timeout: left,
      signal: extra.signal,
    });
    return answer.content.type === "text" ? answer.content.text : "";
  };
  return { askModel, ...asking };
}

/** How long a call waits for its user to answer a confirmation. */
export const CONFIRM_BUDGET_MS = 300_000;

/** Asks the client's user through `elicitation/create` within the call's budget, never past its cancellation. */
function userAsker(extra: RequestExtra): AskUser {
  return async (question) => {
    const answer = await extra.sendRequest({ method: "elicitation/create", params: { ...question } }, ElicitResultSchema, {
      timeout: CONFIRM_BUDGET_MS,
      signal: extra.signal,
    });
    return userAnswerOf(answer) ?? { action: "decline" };
  };
}

type RequestExtra = Parameters<Parameters<Server["setRequestHandler"]>[1]>[1];
