/** The search server's tools: their arguments, handlers and shared kit. */
export { MAX_ANSWER_CHARS, SEARCH_TOOLS, type SearchTool, type ToolContext } from "./tools.js";
