import type { Ajv2020, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { someOf } from "../base/lists.js";
import { closest } from "../base/suggest.js";
import type { ToolDefinition } from "../base/tool.js";
import { patternWords } from "./pattern-words.js";

/** Compiled argument and result validators of one tool. */
export interface ToolValidators {
  input: ValidateFunction;
  /** Under `strict` only: the document's schema, which a result must match. */
  output?: ValidateFunction;
  /** The document's own schema, under `warn` only: where a result differs from it is logged. */
  documented?: ValidateFunction;
}

/**
 * Each tool's validators, compiled once: on first use, or earlier by `warmUp` while the server idles. Compiling
 * every schema at start-up would cost seconds for a large API; compiling per request would cost it on every call.
 */
export class ValidatorCache {
  private ajv: Ajv2020 | undefined;
  private loading: Promise<void> | undefined;
  private readonly compiled = new Map<string, ToolValidators>();

  constructor(private readonly tools: ReadonlyMap<string, ToolDefinition>) {}

  /** Loads the compiler (Ajv is imported on first need, not at start-up). */
  ready(): Promise<void> {
    this.loading ??= import("./ajv-compiler.js").then(({ createCompiler }) => {
      this.ajv = createCompiler();
    });
    return this.loading;
  }

  /** The validators of a tool, compiling them the first time; undefined for an unknown tool. */
  async forTool(name: string): Promise<ToolValidators | undefined> {
    const cached = this.compiled.get(name);
    if (cached) return cached;
    await this.ready();
    return this.get(name);
  }

  /** The validators of a tool, once `ready()` has resolved, compiling them the first time. */
  get(name: string): ToolValidators | undefined {
    const cached = this.compiled.get(name);
    if (cached) return cached;
    const tool = this.tools.get(name);
    if (!tool) return undefined;
    try {
      const validators = this.compile(tool, this.compiler());
      this.compiled.set(name, validators);
      return validators;
    } catch (error) {
      throw new Error(`tool ${tool.name}: schema does not compile: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private compiler(): Ajv2020 {
    if (!this.ajv) throw new Error("the validator compiler is not loaded yet (await ready() first)");
    return this.ajv;
  }

  private compile(tool: ToolDefinition, ajv: Ajv2020): ToolValidators {
    const input = ajv.compile(tool.inputSchema);
    const mode = tool.outputValidation ?? "warn";
    if (tool.outputSchema === undefined || mode === "off") return { input };
    if (mode === "strict") return { input, output: ajv.compile(tool.outputSchema) };
    return { input, documented: ajv.compile(tool.outputSchema) };
  }

  /**
   * Compiles the remaining tools one at a time while nothing else is running (`busy` says when requests are in flight:
   * a compile would hold them up); resolves when all are done or stopped.
   */
  warmUp(signal?: AbortSignal, busy: () => boolean = () => false): Promise<void> {
    const pending = [...this.tools.keys()].filter((name) => !this.compiled.has(name));
    return this.ready().then(() => this.compileWhileIdle(pending, signal, busy));
  }

  private compileWhileIdle(pending: string[], signal: AbortSignal | undefined, busy: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const step = () => {
        if (signal?.aborted || pending.length === 0) return resolve();
        if (busy()) return void setTimeout(step, 25).unref();
        const name = pending.shift();
        if (name !== undefined) this.get(name);
        setImmediate(step);
      };
      setImmediate(step);
    });
  }

  /** How many tools have compiled validators. */
  get size(): number {
    return this.compiled.size;
  }
}

/**
 * One line per validation error, e.g. `body/content: must be string`, at most `limit` of them. `schema`: the schema
 * validated against, so that an unknown property's line names the one meant, or the names the object takes.
 */
export function describeErrors(errors: readonly ErrorObject[] | null | undefined, limit = 5, schema?: unknown): string {
  // Each distinct line once, with the first error that made it; only the lines shown look for the name meant.
  const lines = new Map<string, ErrorObject>();
  for (const error of errors ?? []) {
    const line = errorLine(error);
    if (!lines.has(line)) lines.set(line, error);
  }
  const shown = [...lines]
    .slice(0, limit)
    .map(([line, error]) => (error.keyword === "additionalProperties" ? `${line}${knownProperties(error, schema)}` : line))
    .join("; ");
  return lines.size > limit ? `${shown}; and ${lines.size - limit} more` : shown;
}

/** One validation error as a line. */
function errorLine(error: ErrorObject): string {
  const at = error.instancePath === "" ? "" : `${clip(error.instancePath.slice(1))}: `;
  if (error.keyword === "additionalProperties") return `${at}unknown property "${clip(String(error.params.additionalProperty))}"`;
  if (error.keyword === "enum") return `${at}must be one of ${JSON.stringify(error.params.allowedValues)}`;
  if (error.keyword === "pattern") return `${at}${patternWords(clip(String(error.params.pattern)))}`;
  return `${at}${error.message ?? error.keyword}`;
}

/** How many property names an unknown property's error lists. */
const LISTED_PROPERTIES = 12;

/** What follows an unknown property: the name meant (a near miss), else the names the object takes; nothing when unknown. */
function knownProperties(error: ErrorObject, schema: unknown): string {
  const names = propertyNames(schema, error.schemaPath);
  if (names.length === 0) return "";
  const meant = closest(String(error.params.additionalProperty), names);
  if (meant !== undefined) return `; did you mean "${clip(meant)}"?`;
  return ` (it takes ${someOf(names.map(clip), LISTED_PROPERTIES)})`;
}

/** The property names of the object schema whose `additionalProperties` an error names (`schemaPath` inside `schema`). */
function propertyNames(schema: unknown, schemaPath: string): string[] {
  const segments = schemaPath.split("/").slice(1, -1);
  if (!schemaPath.startsWith("#/") || segments.length > 64) return [];
  let node = schema;
  for (const segment of segments) {
    let key: string;
    try {
      key = decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return [];
    }
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return [];
    node = Reflect.get(node, key);
  }
  const properties: unknown = typeof node === "object" && node !== null ? Reflect.get(node, "properties") : undefined;
  return typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
}

/** A caller-chosen property name as an error shows it: one line, at most 64 characters. */
function clip(text: string): string {
  const line = text.slice(0, 65).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu, " ");
  return line.length > 64 ? `${line.slice(0, 63)}…` : line;
}
