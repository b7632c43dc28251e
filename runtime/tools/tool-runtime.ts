import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../base/logger.js";
import type { ToolDefinition } from "../base/tool.js";
import { type AuthDefinition, CredentialStore, type SignedInAuthorization } from "../call/credentials.js";
import { ServerParameters } from "../call/server-parameters.js";
import { ValidatorCache } from "../schema/validation.js";
import { listing, objectSchema, toolsModeList } from "./listed-tools.js";
import { requestStateSealer } from "./request-state.js";
import type { DiscoveryFactory, ServedToolsFactory, ServerIdentity, ToolRuntime } from "./tool-runtime-contract.js";

/** Without a generated auth definition: pass the caller's Authorization through, nothing else. */
const DEFAULT_AUTH: AuthDefinition = { schemes: {}, passthrough: { authorization: true, headers: [] } };

export type { ServerIdentity, ToolRuntime } from "./tool-runtime-contract.js";

/** The shared state of a server's tools; fails fast on duplicate names or schemas whose root is not an object. */
export function createToolRuntime(options: {
  identity: ServerIdentity;
  tools: readonly ToolDefinition[];
  upstream: ToolRuntime["upstream"];
  log: Logger;
  /** Security schemes and passthrough policy. @default caller's Authorization passed through, no schemes */
  auth?: AuthDefinition;
  /** Where server-held credentials are read from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** False when the upstream URL came from the document alone, not from the operator: caller credentials stay home. @default true */
  forwardCaller?: boolean;
  /** Discovery mode: list three tools that search, describe and call the registry's operations (`discoveryOf(data)`). */
  discovery?: DiscoveryFactory;
  /** Code mode: `run_code` over the registry's operations (`codeOf(settings)`). */
  code?: ServedToolsFactory;
  /** Discovery search never asks the client's model (`MCP_SAMPLING=off`). */
  samplingOff?: boolean;
  /** Tools that want confirmation run for clients that cannot be asked (`MCP_CONFIRM=best-effort`; the typed client's own scripts). */
  confirmBestEffort?: boolean;
  /** The key sealing confirmations' `requestState` (`MCP_STATE_KEY`, shared by replicas); a key of this process when unset. */
  stateKey?: string;
  /** Resource mode: what a signed-in caller's calls send upstream (never its MCP token), and whether to list every tool. */
  signIn?: { listAllTools: boolean; upstreamAuthorization: SignedInAuthorization };
}): ToolRuntime {
  const auth = options.auth ?? DEFAULT_AUTH;
  const credentials = new CredentialStore(auth, options.env ?? process.env, {
    timeoutMs: options.upstream.timeoutMs,
    ...(options.upstream.fetch ? { fetch: options.upstream.fetch } : {}),
    ...(options.forwardCaller === false ? { forwardCaller: false } : {}),
    ...(options.signIn ? { signedIn: options.signIn.upstreamAuthorization } : {}),
  });
  const tools = new Map<string, ToolDefinition>();
  for (const tool of options.tools) {
    if (tools.has(tool.name)) throw new Error(`duplicate tool name ${tool.name}`);
    tools.set(tool.name, tool);
  }
  for (const tool of options.tools) {
    objectSchema(tool.name, tool.inputSchema);
    if (tool.outputSchema) objectSchema(tool.name, tool.outputSchema);
  }
  // The listings are computed when first needed: a large API starts without them.
  let listed: { tools: ListedTool[]; describes: boolean } | undefined;
  const { identity, upstream, log } = options;
  const apiTitle = identity.title ?? identity.name;
  const discovery = options.discovery?.(options.tools, apiTitle);
  const code = options.code?.(options.tools, apiTitle);
  const listTools = () => {
    const served = code?.listed ?? [];
    if (!discovery) {
      const own = toolsModeList(options.tools, apiTitle);
      return { tools: [...own.tools, ...served], describes: own.describes };
    }
    const direct = options.tools.filter((tool) => discovery.listsDirectly(tool.name));
    return { tools: [...discovery.listed, ...served, ...direct.map((tool) => listing(tool).tool)], describes: false };
  };
  const validators = new ValidatorCache(tools);
  return {
    identity,
    upstream,
    log,
    auth,
    credentials,
    parameters: new ServerParameters(tools.values(), options.env ?? process.env),
    tools,
    validators,
    get listed() {
      listed ??= listTools();
      return listed.tools;
    },
    get describesTools() {
      listed ??= listTools();
      return listed.describes;
    },
    ...(discovery ? { discovery } : {}),
    ...(code ? { code } : {}),
    ...(options.samplingOff ? { samplingOff: true } : {}),
    ...(options.confirmBestEffort ? { confirmBestEffort: true } : {}),
    requestStates: requestStateSealer(options.stateKey),
    ...(options.signIn?.listAllTools ? { listsAllTools: true } : {}),
  };
}
