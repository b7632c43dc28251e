/**
 * Discovery mode (`oapi-mcp-gen-runtime/discovery`): search, describe and call over a registry too large to list. A
 * tools-mode server never loads it; `serve` imports it only when it is given discovery data.
 */

import type { ToolDefinition } from "../base/tool.js";
import type { DiscoveryFactory } from "../tools/tool-runtime-contract.js";
import { type DiscoveryData, DiscoveryService } from "./discovery.js";
import type { CodeBeside } from "./discovery-tools.js";

export { type ApiPart, apiParts, partsSentence } from "./api-parts.js";
export { type DiscoveryData, DiscoveryService, searchableOperation } from "./discovery.js";
export {
  type CodeBeside,
  codeBeside,
  DISCOVERY_TOOLS,
  discoveryToolDefinitions,
  mostCautious,
  neededOnEveryCall,
} from "./discovery-tools.js";
export type { IdSupplier } from "./id-suppliers.js";
export { synopsis } from "./search-text.js";

/** The runtime's discovery tools over the generated data, for `createToolRuntime({ discovery })`; `code` as code mode stands. */
export function discoveryOf(data: DiscoveryData, code: CodeBeside = "none"): DiscoveryFactory {
  return (tools: readonly ToolDefinition[], apiTitle: string) => new DiscoveryService(tools, data, apiTitle, code);
}
