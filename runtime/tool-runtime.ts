import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { type AuthDefinition, CredentialStore } from "./credentials.js";
import { type DiscoveryData, DiscoveryService } from "./discovery.js";
import { DISCOVERY_TOOLS, describeToolDefinition } from "./discovery-tools.js";
import { listing, objectSchema } from "./listed-tools.js";
import type { Logger } from "./logger.js";
import { ServerParameters } from "./server-parameters.js";
import type { ToolDefinition } from "./tool.js";
import type { ServerIdentity, ToolRuntime } from "./tool-runtime-contract.js";
import { ValidatorCache } from "./validation.js";

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
  /** Discovery mode: list three tools that search, describe and call the registry's operations. */
  discovery?: DiscoveryData;
}): ToolRuntime {
  const auth = options.auth ?? DEFAULT_AUTH;
  const credentials = new CredentialStore(auth, options.env ?? process.env, {
    timeoutMs: options.upstream.timeoutMs,
    ...(options.upstream.fetch ? { fetch: options.upstream.fetch } : {}),
    ...(options.forwardCaller === false ? { forwardCaller: false } : {}),
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
  const discovery = options.discovery ? new DiscoveryService(options.tools, options.discovery, apiTitle) : undefined;
  const listTools = () => {
    const direct = options.tools.filter((tool) => !discovery || discovery.listsDirectly(tool.name));
    const listings = direct.map(listing);
    const own = listings.map((each) => each.tool);
    if (discovery) return { tools: [...discovery.listed, ...own], describes: false };
    // A tools-mode server whose listings were cut lists describe_operation, which their notes point to.
    const describes = listings.some((each) => each.cut) && !tools.has(DISCOVERY_TOOLS.describe);
    return { tools: describes ? [...own, describeToolDefinition(apiTitle)] : own, describes };
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
  };
}
