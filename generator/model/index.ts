/** Each selected operation as a tool: names, parameters, bodies, results, credentials, servers, and the mode and search data. */

export { type OperationAction, operationAction } from "../base/operation-action.js";
export { type OperationTraits, operationTraits } from "../base/operation-traits.js";
export { lexiconFor } from "../lexicon/lexicon.js";
export { buildTools } from "./build-tools.js";
export {
  alwaysListedTools,
  discoveryData,
  discoveryDataOf,
  lexiconWords,
  type ServingMode,
  searchableOperations,
  servingMode,
} from "./discovery.js";
export { linkedSuppliers } from "./linked-ids.js";
export { securitySchemes } from "./security.js";
export { upstreamDefaults } from "./servers.js";
export { annotationsFor, operationToTool, type ToolModel } from "./tool-model.js";
export { toolNameFromOperationId, toolNameFromRoute, uniqueNames } from "./tool-name.js";
export { budgetWarning, checkBudget, discoveryListSize, type ToolsListSize, toolsListSize, toolsModeListSize } from "./tools-list.js";
