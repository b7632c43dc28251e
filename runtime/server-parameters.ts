import { isRecord } from "./own-property.js";
import type { ParameterSource, ToolDefinition } from "./tool.js";

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

/** Where a server-supplied value goes, for messages: `header parameter "token"`, `body property "token"`. */
interface Supplied {
  readonly source: ParameterSource;
  readonly required: boolean;
  readonly what: string;
}

/**
 * Parameters and body properties the server supplies instead of the model (config `parameters`): a fixed value, or an
 * environment variable read once at start (an empty one counts as unset). They are in no tool's input schema, so no
 * caller can set or see them.
 */
export class ServerParameters {
  private readonly env = new Map<string, string | undefined>();
  private readonly variables = new Map<string, Set<string>>();

  constructor(tools: Iterable<ToolDefinition>, env: NodeJS.ProcessEnv) {
    for (const tool of tools) {
      const sources = [
        ...tool.http.parameters.flatMap((binding) => (binding.source ? [binding.source] : [])),
        ...Object.values(tool.http.body?.sources ?? {}),
      ];
      for (const source of sources) {
        if (!("env" in source)) continue;
        const value = Object.hasOwn(env, source.env) ? env[source.env] : undefined;
        this.env.set(source.env, value === "" ? undefined : value);
        this.variables.set(source.env, (this.variables.get(source.env) ?? new Set<string>()).add(tool.name));
      }
    }
  }

  /** The validated arguments with the server's values added (the caller's never reach these bindings). */
  apply(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
    const supplied = tool.http.parameters.some((binding) => binding.source !== undefined);
    const body = Object.entries(tool.http.body?.sources ?? {});
    if (!supplied && body.length === 0) return args;
    const merged: Record<string, unknown> = { ...args };
    for (const binding of tool.http.parameters) {
      const source = binding.source;
      if (source === undefined) continue;
      const value = this.valueOf({ source, required: binding.required, what: `${binding.in} parameter "${binding.name}"` });
      if (value !== undefined) define(merged, binding.argument, value);
      else delete merged[binding.argument];
    }
    if (body.length > 0) {
      const given = isRecord(merged.body) ? { ...merged.body } : {};
      let filled = false;
      for (const [name, source] of body) {
        const value = this.valueOf({ source, required: source.required === true, what: `body property "${name}"` });
        if (value === undefined) continue;
        define(given, name, value);
        filled = true;
      }
      if (filled || merged.body !== undefined) merged.body = given;
    }
    return merged;
  }

  /** Every variable the tools read, for the start-up log (names only: the values are secrets). */
  configured(): ParameterVariable[] {
    return [...this.variables].map(([variable, tools]) => ({ variable, set: this.env.get(variable) !== undefined, tools: tools.size }));
  }

  private valueOf({ source, required, what }: Supplied): string | number | boolean | undefined {
    if ("value" in source) return source.value;
    const value = this.env.get(source.env);
    if (value === undefined && required) throw new ServerParameterError(`the server's ${source.env} is not set (it supplies the ${what})`);
    return value;
  }
}

/** Sets an own property, whatever its name (`__proto__` included). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
