import type { ParameterBinding, ToolDefinition } from "./tool.js";

/** A parameter value the server must supply and cannot: its environment variable is not set. */
export class ServerParameterError extends Error {
  override name = "ServerParameterError";
}

/** An environment variable the server's parameters read, whether it is set and how many tools use it. */
export interface ParameterVariable {
  readonly variable: string;
  readonly set: boolean;
  readonly tools: number;
}

/**
 * Parameters the server supplies instead of the model (config `parameters`): a fixed value, or an environment variable
 * read once at start. They are in no tool's input schema, so no caller can set or see them.
 */
export class ServerParameters {
  private readonly env = new Map<string, string | undefined>();
  private readonly variables = new Map<string, Set<string>>();

  constructor(tools: Iterable<ToolDefinition>, env: NodeJS.ProcessEnv) {
    for (const tool of tools) {
      for (const binding of tool.http.parameters) {
        const source = binding.source;
        if (source === undefined || !("env" in source)) continue;
        this.env.set(source.env, Object.hasOwn(env, source.env) ? env[source.env] : undefined);
        const users = this.variables.get(source.env) ?? new Set<string>();
        users.add(tool.name);
        this.variables.set(source.env, users);
      }
    }
  }

  /** The validated arguments with the server's values added (the caller's never reach these bindings). */
  apply(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
    const supplied = tool.http.parameters.filter((binding) => binding.source !== undefined);
    if (supplied.length === 0) return args;
    const merged: Record<string, unknown> = { ...args };
    for (const binding of supplied) {
      const value = this.valueOf(binding);
      if (value !== undefined)
        Object.defineProperty(merged, binding.argument, { value, enumerable: true, writable: true, configurable: true });
      else delete merged[binding.argument];
    }
    return merged;
  }

  /** Every variable the tools read, for the start-up log (names only: the values are secrets). */
  configured(): ParameterVariable[] {
    return [...this.variables].map(([variable, tools]) => ({ variable, set: this.env.get(variable) !== undefined, tools: tools.size }));
  }

  private valueOf(binding: ParameterBinding): string | number | boolean | undefined {
    const source = binding.source;
    if (source === undefined) return undefined;
    if ("value" in source) return source.value;
    const value = this.env.get(source.env);
    if (value === undefined && binding.required)
      throw new ServerParameterError(`the server's ${source.env} is not set (it supplies the ${binding.in} parameter "${binding.name}")`);
    return value;
  }
}
