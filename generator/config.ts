import { readFile } from "node:fs/promises";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import type { OutputValidation } from "oapi-mcp-gen-runtime";
import { errorCode } from "../openapi/error-detail.js";
import { detectFormat, parseDocumentText } from "../openapi/load.js";
import { didYouMean } from "../openapi/suggest.js";
import configSchema from "./config.schema.json" with { type: "json" };
import { UserError } from "./errors.js";

/** Annotation hints a config may force on a tool. @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-annotations */
export interface AnnotationOverride {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Reshaping of one operation's request-body object schema. */
export interface BodyOverride {
  /** Replaces the body's `required` list. */
  required?: string[];
  /** Properties removed from the body schema. */
  omit?: string[];
  /** Minimum number of properties the body must carry. */
  minProperties?: number;
}

/** Per-operation adjustments. */
export interface OperationOverride {
  name?: string;
  title?: string;
  description?: string;
  body?: BodyOverride;
  annotations?: AnnotationOverride;
  pathPrefixes?: Record<string, string | string[]>;
  /** How this tool's results are checked; `schema: false` publishes no output schema. */
  output?: { validate?: OutputValidation /** @default true */; schema?: boolean };
}

/** Operation filters of `select` and `select.exclude`. */
export interface OperationFilter {
  tags?: string[];
  /** Path globs: `*` matches one segment, `**` any number. */
  paths?: string[];
  methods?: string[];
}

/** Rule-based selection, added after the allowlist. */
export interface SelectConfig extends OperationFilter {
  /** Every operation of the document. */
  all?: boolean;
  exclude?: OperationFilter & { operationIds?: string[] };
}

/** The generator configuration, as written by the user. */
/** The config's override for an operation (own entries only: an operationId such as `constructor` is just a name). */
export function overrideFor(config: GeneratorConfig, operationId: string | undefined): OperationOverride | undefined {
  const overrides = config.overrides;
  return operationId !== undefined && overrides !== undefined && Object.hasOwn(overrides, operationId) ? overrides[operationId] : undefined;
}

export interface GeneratorConfig {
  server: {
    name: string;
    /** @default "0.1.0" */
    version?: string;
    title?: string;
    instructions?: string;
  };
  /** The allowlist of operationIds. */
  operations?: string[];
  /** Rule-based selection (tags, path globs, methods, all), with excludes. */
  select?: SelectConfig;
  /** Default upstream base URL instead of the document's first server. */
  baseUrl?: string;
  /** Limits on each tool's schemas. */
  schemas?: { /** Largest input or output schema in bytes of JSON; 0 for no limit. @default 65536 */ maxBytes?: number };
  /** Limits on the size of the tools/list answer. */
  budget?: { maxBytes?: number; maxTokens?: number };
  /** Upstream authentication: where server-held credentials go and what the caller may pass through. */
  auth?: {
    /** `declared`: operations whose security names the scheme; `all`: every operation. @default "declared" */
    apply?: "declared" | "all";
    passthrough?: { /** @default true */ authorization?: boolean; headers?: string[] };
  };
  /** External `$ref`s of multi-file documents (files in the document's folder are always followed). */
  externalRefs?: { /** @default false */ outsideFolder?: boolean /** @default false */; urls?: boolean | string[] };
  /** How tool results are checked against the document's response schemas. */
  output?: { /** @default "warn" */ validate?: OutputValidation };
  /** Path-parameter prefixes by parameter name, for every operation. */
  pathPrefixes?: Record<string, string | string[]>;
  /** Per-operation overrides keyed by operationId. */
  overrides?: Record<string, OperationOverride>;
}

const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true, validateFormats: false });
const validateShape = ajv.compile<GeneratorConfig>(configSchema);

/** Validates a parsed config value, reporting every problem at once. */
export function parseConfig(value: unknown, source = "config"): GeneratorConfig {
  if (validateShape(value)) {
    if (!value.operations && !value.select)
      throw new UserError(`${source}: top level: needs "operations" (an allowlist of operationIds) or "select"`);
    return value;
  }
  const problems = (validateShape.errors ?? []).filter(isReportable).map((error) => `${source}: ${describe(error)}`);
  throw new UserError([...new Set(problems)]);
}

/** Reads a YAML or JSON config file and validates it. */
export async function readConfigFile(path: string): Promise<GeneratorConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = errorCode(error);
    throw new UserError(`${path}: cannot read config (${code ?? String(error)})${code === "ENOENT" ? "; pass --config PATH" : ""}`);
  }
  try {
    return parseConfig(parseDocumentText(text, detectFormat(text, { fileName: path }), path), path);
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(error instanceof Error ? error.message : String(error));
  }
}

/** `oneOf` branches and `if` failures repeat what the branch errors already say. */
function isReportable(error: ErrorObject): boolean {
  return error.keyword !== "oneOf" && error.keyword !== "if";
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === "" ? "top level" : error.instancePath.slice(1).replace(/\//g, ".");
  if (error.keyword === "additionalProperties") {
    const key = String(error.params.additionalProperty);
    const properties: unknown = error.parentSchema?.properties;
    const known = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
    return `${at}: unknown key "${key}"${didYouMean(key, known)}`;
  }
  if (error.keyword === "required") return `${at}: missing required key "${String(error.params.missingProperty)}"`;
  return `${at}: ${error.message ?? error.keyword}`;
}
