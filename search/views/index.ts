/** What the tools show of a loaded API: views, Markdown, comparisons and answers bounded in size. */
export { boundObject, boundValue, clipText, DEFAULT_MAX_CHARS } from "./bounded.js";
export { compareApis } from "./compare.js";
export {
  cell,
  codeBlock,
  endpointsMarkdown,
  fieldsMarkdown,
  operationMarkdown,
  quotedMarkdown,
  schemaMarkdown,
  tableMarkdown,
} from "./markdown.js";
export { operationBrief, operationView, schemaView } from "./views.js";
