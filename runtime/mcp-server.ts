import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, type Tool as ListedTool, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type CallContext, executeTool, type UpstreamSettings } from "./call-tool.js";
import type { Logger } from "./logger.js";
import { invalidParams } from "./protocol-error.js";
import type { ToolDefinition } from "./tool.js";
import { compileValidators, type ToolValidators } from "./validation.js";

/** Identity the server reports in `initialize`. */
export interface ServerIdentity {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
}

/** Tools, compiled validators and upstream settings, built once and shared by every request. */
export interface ToolRuntime {
  identity: ServerIdentity;
  upstream: UpstreamSettings;
  log: Logger;
  tools: ReadonlyMap<string, ToolDefinition>;
  validators: ReadonlyMap<string, ToolValidators>;
  /** The `tools/list` answer, computed once. */
  listed: ListedTool[];
}

/** Compiles validators and the `tools/list` answer once; fails fast on duplicate names or bad schemas. */
export function createToolRuntime(options: {
  identity: ServerIdentity;
  tools: readonly ToolDefinition[];
  upstream: UpstreamSettings;
  log: Logger;
}): ToolRuntime {
  const tools = new Map<string, ToolDefinition>();
  for (const tool of options.tools) {
    if (tools.has(tool.name)) throw new Error(`duplicate tool name ${tool.name}`);
    tools.set(tool.name, tool);
  }
  const listed = options.tools.map(({ name, title, description, inputSchema, outputSchema, annotations, _meta }) => ({
    name,
    title,
    description,
    inputSchema: inputSchema as ListedTool["inputSchema"],
    outputSchema: outputSchema as ListedTool["outputSchema"],
    annotations,
    _meta,
  }));
  return { ...options, tools, validators: compileValidators(options.tools), listed };
}

/** An SDK low-level `Server` advertising tools only, bound to one caller's context. */
export function createMcpServer(runtime: ToolRuntime, context: CallContext): Server {
  const { identity } = runtime;
  const server = new Server(
    { name: identity.name, version: identity.version, ...(identity.title ? { title: identity.title } : {}) },
    { capabilities: { tools: { listChanged: false } }, ...(identity.instructions ? { instructions: identity.instructions } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: runtime.listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const tool = runtime.tools.get(name);
    const validators = runtime.validators.get(name);
    if (!tool || !validators) throw invalidParams(`Unknown tool: ${name}`);
    return executeTool(tool, validators, args ?? {}, context, runtime.upstream, runtime.log);
  });
  return server;
}
