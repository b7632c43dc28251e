import { isRecord, setOwn } from "../base/own-property.js";
import type { BodyBinding, ParameterBinding, ParameterSource, ToolDefinition } from "../base/tool.js";

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

/** One value the server supplies for a tool: where it goes (a parameter's argument, or a body property) and from where. */
export interface SuppliedValue {
  readonly source: ParameterSource;
  readonly required: boolean;
  /** `header`, `query`, `path`, `cookie` or `body`. */
  readonly in: ParameterBinding["in"] | "body";
  /** The parameter's or body property's name on the wire. */
  readonly name: string;
  /** The argument it fills (a parameter's); undefined for a body property. */
  readonly argument?: string;
}

/** Every value the server supplies for a tool (config `parameters`): its parameters', then its body properties'. */
export function suppliedValues(http: {
  readonly parameters: readonly ParameterBinding[];
  readonly body?: BodyBinding | undefined;
}): SuppliedValue[] {
  return [
    ...http.parameters.flatMap(({ source, required, in: location, name, argument }) =>
      source ? [{ source, required, in: location, name, argument }] : [],
    ),
    ...Object.entries(http.body?.sources ?? {}).map(([name, source]) => ({
      source,
      required: source.required === true,
      in: "body" as const,
      name,
    })),
  ];
}

/** How a message names a supplied value: `header parameter "token"`, `body property "token"`. */
export function suppliedWhat(value: Pick<SuppliedValue, "in" | "name">): string {
  return `${value.in === "body" ? "body property" : `${value.in} parameter`} "${value.name}"`;
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
      for (const { source } of suppliedValues(tool.http)) {
        if (!("env" in source)) continue;
        const value = Object.hasOwn(env, source.env) ? env[source.env] : undefined;
        this.env.set(source.env, value === "" ? undefined : value);
        this.variables.set(source.env, (this.variables.get(source.env) ?? new Set<string>()).add(tool.name));
      }
    }
  }

  /**
   * The validated arguments with the server's values added (the caller's never reach these bindings). A supplied name
   * wins wherever it appears: a field of that name the caller put in an open body is dropped, so a model cannot send
   * its own `token` beside the server's.
   */
  apply(tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> {
    const supplied = suppliedValues(tool.http);
    if (supplied.length === 0) return args;
    const merged: Record<string, unknown> = { ...args };
    const body: Record<string, unknown> = isRecord(merged.body) ? { ...merged.body } : {};
    let filled = false;
    for (const value of supplied) {
      if (Object.hasOwn(body, value.name)) delete body[value.name];
      const given = this.valueOf(value);
      if (value.argument === undefined) {
        if (given === undefined) continue;
        setOwn(body, value.name, given);
        filled = true;
      } else if (given !== undefined) setOwn(merged, value.argument, given);
      else delete merged[value.argument];
    }
    if (filled || isRecord(merged.body)) merged.body = body;
    return merged;
  }

  /** Every variable the tools read, for the start-up log (names only: the values are secrets). */
  configured(): ParameterVariable[] {
    return [...this.variables].map(([variable, tools]) => ({ variable, set: this.env.get(variable) !== undefined, tools: tools.size }));
  }

  private valueOf(value: SuppliedValue): string | number | boolean | undefined {
    const { source } = value;
    if ("value" in source) return source.value;
    const text = this.env.get(source.env);
    if (text === undefined && value.required)
      throw new ServerParameterError(`the server's ${source.env} is not set (it supplies the ${suppliedWhat(value)})`);
    return text;
  }
}
