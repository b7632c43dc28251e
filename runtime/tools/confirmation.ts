import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { withEscapedMarks } from "../base/json-text.js";
import { isRecord } from "../base/own-property.js";
import { requestScope } from "../base/request-scope.js";
import type { ToolDefinition } from "../base/tool.js";
import { errorResult } from "../result/result.js";
import { callDigest, REQUEST_STATE_TTL_MS, requestStateSealer } from "./request-state.js";
import type { CallingClient, ToolRuntime, UserAnswer, UserQuestion } from "./tool-runtime-contract.js";

/** The key of the one input a confirmation asks for, in `inputRequests` and in a retry's `inputResponses`. */
export const CONFIRM_INPUT = "confirm";

/** Characters of the arguments the user is shown; past it they are cut, and the message says so. */
const SHOWN_ARGUMENTS = 2_000;

/** What the gate decided: the call goes on, or it stops with the result the caller gets. */
export type Confirmation =
  | { go: true; skipped?: boolean }
  | { go: false; result: CallToolResult; outcome: "declined" | "unconfirmed" | "input-required"; reason: string };

const GO: Confirmation = { go: true };

/** A sealer for runtimes built without one (tests, embedders): a key of this process. */
const fallbackSealer = requestStateSealer(undefined);

/** What the user is asked: the operation, what it does upstream, and the arguments it will be sent with. */
export function confirmationQuestion(tool: ToolDefinition, args: Record<string, unknown>): UserQuestion {
  // Marks that reorder or hide text are escapes: an argument cannot disguise what the call will do.
  const json = withEscapedMarks(JSON.stringify(args, null, 2) ?? "{}");
  const shown =
    json.length > SHOWN_ARGUMENTS ? `${json.slice(0, SHOWN_ARGUMENTS)}\n… (${json.length - SHOWN_ARGUMENTS} more characters)` : json;
  const what = tool.title && tool.title !== tool.name ? `${tool.name} (${tool.title})` : tool.name;
  return {
    message: `Confirm ${what}: ${tool.http.method} ${tool.http.path} with these arguments:\n${shown}`,
    requestedSchema: {
      type: "object",
      properties: {
        confirm: { type: "boolean", title: `Run ${tool.name}`, description: "Send this call to the API", default: false },
      },
      required: ["confirm"],
    },
  };
}

/** An `elicitation/create` answer as MCP writes it, read as the user's; undefined when it is not one. */
export function userAnswerOf(value: unknown): UserAnswer | undefined {
  if (!isRecord(value)) return undefined;
  if (value.action === "decline" || value.action === "cancel") return { action: value.action };
  if (value.action !== "accept") return undefined;
  return { action: "accept", confirmed: isRecord(value.content) && value.content.confirm === true };
}

/** Who is asking, as a sealed state binds it: the signed-in subject, or nobody. */
function principal(): string {
  const signedIn = requestScope().signedIn;
  return signedIn ? `user:${signedIn.subject}` : "anonymous";
}

/** The gate's verdict on the user's answer. */
function judged(tool: ToolDefinition, answer: UserAnswer): Confirmation {
  if (answer.action === "accept" && answer.confirmed) return GO;
  const why = answer.action === "cancel" ? "dismissed the confirmation of" : "declined";
  const message = `The user ${why} ${tool.name}; nothing was sent to the API.`;
  return {
    go: false,
    result: errorResult(message),
    outcome: "declined",
    reason: `user ${answer.action === "accept" ? "did not confirm" : answer.action}`,
  };
}

/**
 * Asks the user before a call the config marks `confirm`: over elicitation while the call waits (2025-11-25, stdio or a
 * session), or by answering `input_required` and reading the retry (2026-07-28); a client that can be asked neither way
 * is refused unless the operator allows unconfirmed calls (`MCP_CONFIRM=best-effort`). Nothing reaches the API before
 * a yes.
 */
export async function confirmCall(
  runtime: ToolRuntime,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  client: CallingClient = {},
): Promise<Confirmation> {
  if (!tool.confirm) return GO;
  const question = confirmationQuestion(tool, args);
  if (client.askUser) {
    try {
      return judged(tool, await client.askUser(question));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      const message = `${tool.name} needs the user's confirmation, and asking failed (${why}); nothing was sent to the API.`;
      return { go: false, result: errorResult(message), outcome: "unconfirmed", reason: `asking failed: ${why}` };
    }
  }
  if (client.rounds?.canElicit && !client.inProgram) {
    const sealer = runtime.requestStates ?? fallbackSealer;
    const call = callDigest(tool.name, args);
    const who = principal();
    const answer = userAnswerOf(client.rounds.responses?.[CONFIRM_INPUT]);
    const claims = client.rounds.state === undefined ? undefined : sealer.open(client.rounds.state);
    // Only an answer to the question asked for this very call, by this caller, in time, counts, and only once.
    if (answer && claims && claims.call === call && claims.principal === who && sealer.consume(claims)) return judged(tool, answer);
    const state = sealer.seal({ call, principal: who, expires: Date.now() + REQUEST_STATE_TTL_MS });
    const inputRequests = { [CONFIRM_INPUT]: { method: "elicitation/create", params: { mode: "form", ...question } } };
    const result: CallToolResult = { content: [], resultType: "input_required", inputRequests, requestState: state };
    return { go: false, result, outcome: "input-required", reason: "asked the user to confirm" };
  }
  if (client.inProgram && !runtime.confirmBestEffort) {
    const message =
      `api.${tool.name} asks the user to confirm each call, and a program can ask only a client that answers elicitation ` +
      `while it runs (stdio or a session); nothing was sent to the API. Call ${tool.name} outside a program instead.`;
    return { go: false, result: errorResult(message), outcome: "unconfirmed", reason: "a program cannot ask this client" };
  }
  if (runtime.confirmBestEffort) return { go: true, skipped: true };
  const message =
    `${tool.name} asks the user to confirm each call, and this client cannot be asked: it declared no elicitation, or ` +
    "this exchange carries no request back to it (stateless HTTP in the 2025 protocol); nothing was sent to the API. " +
    "A client with elicitation is asked over stdio, in a session (the server's MCP_SESSIONS=stateful) or in the 2026-07-28 " +
    "protocol; the server's operator may allow unconfirmed calls (MCP_CONFIRM=best-effort).";
  return { go: false, result: errorResult(message), outcome: "unconfirmed", reason: "the client cannot be asked" };
}

/** Whether a client's elicitation capability takes forms: `{}` (forms only, as before URL mode) or with `form`. */
export function asksForms(elicitation: unknown): boolean {
  if (!isRecord(elicitation)) return false;
  const modes = Object.keys(elicitation);
  return modes.length === 0 || modes.includes("form");
}

/** Whether a tool result is a 2026-07-28 `input_required` answer rather than the call's result. */
export function isInputRequired(result: unknown): result is Record<string, unknown> & { resultType: "input_required" } {
  return isRecord(result) && result.resultType === "input_required";
}
