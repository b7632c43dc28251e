import { readFile } from "node:fs/promises";
import type { ErrorObject } from "ajv";
import { didYouMean } from "oapi-mcp-gen-runtime";
import { detectFormat, parseDocumentText } from "../../openapi/document/index.js";
import { errorCode } from "../../openapi/fetch/index.js";
import { ConfigShapeError, UserError } from "../base/errors.js";
import { configProblems } from "./config-check.js";
import type { GeneratorConfig, OperationOverride, ResolvedConfig } from "./config-types.js";

export type { GeneratorConfig, OperationOverride, ResolvedConfig } from "./config-types.js";

/** Annotation hints a config may force on a tool. @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-annotations */
export type AnnotationOverride = NonNullable<OperationOverride["annotations"]>;

/** Operation filters of `select` and `select.exclude`. */
export type OperationFilter = NonNullable<GeneratorConfig["select"]>["exclude"] & {};

/** The config's override for an operation (own entries only: an operationId such as `constructor` is just a name). */
export function overrideFor(config: GeneratorConfig, operationId: string | undefined): OperationOverride | undefined {
  const overrides = config.overrides;
  return operationId !== undefined && overrides !== undefined && Object.hasOwn(overrides, operationId) ? overrides[operationId] : undefined;
}

/**
 * Whether the config schema found nothing: the value is then a resolved config, its defaults filled in by the check
 * (generator/config/config-check.ts, compiled from the schema ahead of time): the one place defaults are applied.
 */
function isResolved(value: unknown, problems: readonly ErrorObject[] | null): value is ResolvedConfig {
  return problems === null;
}

/** Validates a parsed config value (filling in its defaults), reporting every problem at once. */
export function parseConfig(value: unknown, source = "config"): ResolvedConfig {
  const found = configProblems(value);
  if (isResolved(value, found)) {
    if (!value.operations && !value.select)
      throw new UserError(`${source}: top level: needs "operations" (an allowlist of operationIds) or "select"`);
    return value;
  }
  const problems = (found ?? []).filter(isReportable).map((error) => `${source}: ${describe(error)}`);
  throw new ConfigShapeError([...new Set(problems)], value);
}

/** A config given in code, checked and with its defaults applied (a copy: the caller's object is not changed). */
export function resolveConfig(config: GeneratorConfig | ResolvedConfig): ResolvedConfig {
  return parseConfig(structuredClone(config));
}

/** Reads a YAML or JSON config file and validates it. */
export async function readConfigFile(path: string): Promise<ResolvedConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = errorCode(error);
    throw new UserError(`${path}: cannot read config (${code ?? String(error)})${code === "ENOENT" ? "; pass --config PATH" : ""}`);
  }
  return configFromText(text, path);
}

/** Parses and checks a config file's text (JSON or YAML, by its name and content). */
export function configFromText(text: string, path: string): ResolvedConfig {
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
