import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { type CallToolResult, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { describeErrors, invalidParams, type Logger } from "oapi-mcp-gen-runtime";
import {
  type ClosableModernHost,
  checkArgumentDepth,
  checkedCallParams,
  LooseCallToolRequestSchema,
  sdkModernHost,
} from "oapi-mcp-gen-runtime/sdk";
import { DocumentParseError } from "../openapi/document/index.js";
import { CHANGING_TOOLS, mayLoad } from "./catalogue/index.js";
import { ToolFailure } from "./documents/index.js";
import { MAX_ANSWER_CHARS, SEARCH_TOOLS, type SearchTool, type ToolContext } from "./tools/index.js";
import { boundObject } from "./views/index.js";

const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false, useDefaults: true, ownProperties: true });
const validators = new Map<SearchTool, ValidateFunction>(SEARCH_TOOLS.map((tool) => [tool, ajv.compile(tool.inputSchema)]));
/** The tools a server offers: `call_endpoint` only when the operator allowed calls. */
function offered(calls: boolean): SearchTool[] {
  return SEARCH_TOOLS.filter((tool) => calls || tool.name !== "call_endpoint");
}
const listing = (tools: SearchTool[]) =>
  tools.map(({ name, title, description, inputSchema, annotations }) => ({
    name,
    title,
    description,
    inputSchema,
    annotations: { title, ...annotations },
  }));
const LISTED = { calls: listing(offered(true)), plain: listing(offered(false)) };

/** Identity of the search server. */
export const SEARCH_SERVER_INFO = { name: "oapi-mcp-gen-search", version: "0.1.0", title: "OpenAPI search" };

/** What the search server tells a client in `initialize` and `server/discover`. */
export const SEARCH_INSTRUCTIONS =
  "Load OpenAPI documents with load_openapi, then find endpoints with search_endpoints and read exactly what you need " +
  "with get_operation_by_id, get_schema_details and get_auth_info. Lists are paged (limit, cursor, total).";

/** The 2026-07-28 exchange of the search server, over servers made as `createSearchServer` makes them. */
export function searchModernHost(context: ToolContext, log: Logger): ClosableModernHost {
  return sdkModernHost(() => createSearchServer(context, log), { ...SEARCH_SERVER_INFO, instructions: SEARCH_INSTRUCTIONS });
}

/** An SDK low-level server exposing the search tools over one shared catalogue. */
export function createSearchServer(context: ToolContext, log: Logger): Server {
  const server = new Server(SEARCH_SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: SEARCH_INSTRUCTIONS,
  });
  server.setRequestHandler(ListToolsRequestSchema, () => {
    const tools = context.calls ? LISTED.calls : LISTED.plain;
    // A signed-in caller without the load scope is not shown the tools it may not call.
    return { tools: mayLoad(context.signIn) ? tools : tools.filter((tool) => !CHANGING_TOOLS.has(tool.name)) };
  });
  server.setRequestHandler(LooseCallToolRequestSchema, async (request) => {
    const params = checkedCallParams(request);
    // Before the clone below walks them recursively.
    checkArgumentDepth(params.name, params.arguments);
    const tool = SEARCH_TOOLS.find((candidate) => candidate.name === params.name);
    if (!tool) throw invalidParams(`Unknown tool: ${params.name}`);
    return callSearchTool(tool, structuredClone(params.arguments ?? {}), context, log);
  });
  return server;
}

/** Runs one tool: validated arguments, a bounded answer, failures as `{"error": true, "message": …}` results. */
export async function callSearchTool(
  tool: SearchTool,
  args: Record<string, unknown>,
  context: ToolContext,
  log: Logger,
): Promise<CallToolResult> {
  const validate = validators.get(tool) ?? ajv.compile(tool.inputSchema);
  if (!validate(args)) return failure(`Invalid arguments for ${tool.name}: ${describeErrors(validate.errors, 5, tool.inputSchema)}`);
  try {
    await context.catalogue.ready;
    const answer = await tool.handler(args, context);
    if (answer.markdown !== undefined) {
      const markdown =
        answer.markdown.length > MAX_ANSWER_CHARS
          ? `${answer.markdown.slice(0, MAX_ANSWER_CHARS)}\n\n[truncated: ${answer.markdown.length - MAX_ANSWER_CHARS} more characters]`
          : answer.markdown;
      return { content: [{ type: "text", text: markdown }], structuredContent: { format: "markdown", markdown } };
    }
    const bounded = boundObject(answer.structured, MAX_ANSWER_CHARS);
    const structured = bounded.truncated
      ? {
          ...bounded.value,
          truncated: true,
          truncation_note: `Cut to fit ${MAX_ANSWER_CHARS} characters; see the [truncated: …] markers. Use paging, a narrower query or get_schema_details for the parts you need.`,
        }
      : answer.structured;
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    if (error instanceof ToolFailure) return failure(error.message);
    // A reference the document cannot resolve (dangling or circular) is the document's problem, told as such.
    if (error instanceof DocumentParseError) return failure(`The document of this API is inconsistent: ${error.message}`);
    log.error("search tool failed", { tool: tool.name, error: error instanceof Error ? error.stack : String(error) });
    return failure(`Internal error in ${tool.name}.`);
  }
}

function failure(message: string): CallToolResult {
  const body = { error: true, message };
  return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body, isError: true };
}
