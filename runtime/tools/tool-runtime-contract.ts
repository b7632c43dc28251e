import type { CallToolResult, CreateMessageRequest, Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../base/logger.js";
import type { JsonSchema, ToolAnnotations, ToolDefinition } from "../base/tool.js";
import type { AuthDefinition, CallerCredentials, CredentialStore } from "../call/credentials.js";
import type { ServerParameters } from "../call/server-parameters.js";
import type { ValidatorCache } from "../schema/validation.js";
import type { RequestStateSealer } from "./request-state.js";

/** A tool the runtime serves itself (describe, search, call): what `tools/list` shows of it; it has no HTTP binding. */
export interface ServedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  outputSchema?: JsonSchema & { type: "object" };
  annotations: ToolAnnotations;
}

/** Asks the calling client's model (MCP `sampling/createMessage`) and resolves to the text of its answer. */
export type AskModel = (params: CreateMessageRequest["params"]) => Promise<string>;

/** What the user answered when asked to confirm a call (MCP elicitation's actions). */
export type UserAnswer = { action: "accept"; confirmed: boolean } | { action: "decline" | "cancel" };

/** A form the user is asked to fill: MCP `elicitation/create` params in form mode. */
export interface UserQuestion {
  message: string;
  requestedSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
}

/** Asks the calling client's user (MCP `elicitation/create`) while the call waits, and resolves to the answer. */
export type AskUser = (question: UserQuestion) => Promise<UserAnswer>;

/**
 * A 2026-07-28 call's multi round-trip context: whether its client declared elicitation, and what a retry brought back
 * (`inputResponses`, the echoed `requestState`).
 */
export interface InputRounds {
  readonly canElicit: boolean;
  readonly responses?: Readonly<Record<string, unknown>>;
  readonly state?: string;
}

/** What the client that sent a call can do for it beyond the call itself. */
export interface CallingClient {
  /** Present when the client offers sampling over a channel that carries it, and the server allows asking. */
  readonly askModel?: AskModel;
  /** Present when the client offers elicitation over a channel that carries a request back to it (stdio, a session). */
  readonly askUser?: AskUser;
  /** A 2026-07-28 call: the server asks by answering `input_required`, and the retry carries the answer. */
  readonly rounds?: InputRounds;
  /** A call a `run_code` program makes: it can ask the user only while it waits. */
  readonly inProgram?: boolean;
}

/** Tools the runtime serves over the registry (code mode's `run_code`): what they list, and how each is called. */
export interface ServedTools {
  readonly listed: readonly ServedTool[];
  /** Runs one of these tools; undefined for any other name. */
  call(
    runtime: ToolRuntime,
    name: string,
    args: Record<string, unknown>,
    caller: CallerCredentials,
    client?: CallingClient,
  ): Promise<CallToolResult> | undefined;
}

/** Builds served tools over a registry; `apiTitle` names the API in their descriptions. */
export type ServedToolsFactory = (tools: readonly ToolDefinition[], apiTitle: string) => ServedTools;

/** A discovery-mode server's three tools, as the rest of the runtime calls them (`DiscoveryService` is one). */
export interface DiscoveryTools {
  readonly listed: readonly ServedTool[];
  /** Whether an operation is also listed as a tool of its own. */
  listsDirectly(name: string): boolean;
  /**
   * Runs one of the three discovery tools; undefined for an operation that is also listed as its own tool. Any other
   * name is a JSON-RPC "invalid params" error.
   */
  call(
    runtime: ToolRuntime,
    name: string,
    args: Record<string, unknown>,
    caller: CallerCredentials,
    client?: CallingClient,
  ): Promise<CallToolResult> | undefined;
}

/** Builds discovery mode's tools over a registry; `apiTitle` names the API in their descriptions. */
export type DiscoveryFactory = (tools: readonly ToolDefinition[], apiTitle: string) => DiscoveryTools;

/** Identity the server reports in `initialize`. */
export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
}

/** Everything serving and executing the tools needs, built once and shared by every request. */
export interface ToolRuntime {
  identity: ServerIdentity;
  /** How the runtime reaches the upstream API and reads file arguments for it. */
  upstream: {
    /** Base URL the operation paths are appended to; its origin is the only one that receives credentials. */
    baseUrl: URL;
    /** @default 30000 */
    timeoutMs: number;
    /** @default 10485760 */
    maxResponseBytes: number;
    /** Injected for tests; the global `fetch` otherwise. */
    fetch?: typeof fetch;
    /** Real path of the folder `{ "path": … }` file arguments must lie in (`UPLOAD_DIR`); unset disables them. */
    uploadDir?: string;
    /** `MAX_UPLOAD_BYTES` @default 26214400 */
    maxUploadBytes?: number;
  };
  log: Logger;
  auth: AuthDefinition;
  credentials: CredentialStore;
  /** Parameter values the server supplies (config `parameters`), environment variables read once at start. */
  parameters: ServerParameters;
  tools: ReadonlyMap<string, ToolDefinition>;
  /** Validators compiled once per tool: on first use, or in idle time once the server listens. */
  validators: ValidatorCache;
  /** The `tools/list` answer, computed once, on first use. */
  readonly listed: ListedTool[];
  /** Tools mode: whether `describe_operation` is listed (some tool's listing was cut to fit). */
  readonly describesTools: boolean;
  /** Resource mode with `AUTH_LIST_ALL_TOOLS=on`: `tools/list` shows every tool, whatever the caller's token may call. */
  readonly listsAllTools?: boolean;
  /** `MCP_SAMPLING=off`: discovery search never asks the client's model to choose among its matches. */
  readonly samplingOff?: boolean;
  /**
   * `MCP_CONFIRM=best-effort`: a tool that asks for confirmation still runs for a client that cannot be asked (the
   * operator allows it); by default such a call is refused.
   */
  readonly confirmBestEffort?: boolean;
  /** Seals the `requestState` of 2026-07-28 confirmations (MCP_STATE_KEY, or a key of this process). */
  readonly requestStates?: RequestStateSealer;
  /** In discovery mode: the three discovery tools over the registry, which `tools/list` shows instead of it. */
  discovery?: DiscoveryTools;
  /** With code mode: `run_code`, listed beside the other tools; `describe_operation` then shows each operation's `api` signature. */
  code?: ServedTools;
}
