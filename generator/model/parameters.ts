import {
  defaultStyle,
  didYouMean,
  headerRefusal,
  isOpenApiIgnoredHeader,
  type ParameterBinding,
  type ParameterSource,
} from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../../openapi/document/index.js";
import type { OperationModel, ParameterLocation, ParameterModel } from "../../openapi/model/index.js";
import { UserError } from "../base/errors.js";
import type { OperationOverride } from "../config/config.js";
import type { ParameterSources, PathPrefixes } from "../config/config-types.js";
import type { SchemaConverter } from "../schema/json-schema.js";

export type { ParameterBinding };

/** What the config sets for every operation: path prefixes and parameters the server supplies. */
export interface ParameterGlobals {
  pathPrefixes: PathPrefixes;
  parameters?: ParameterSources;
  /** `schemas.closedBodies`: request bodies refuse fields their schema names nowhere. */
  schemas?: { closedBodies?: boolean };
}

const LOCATIONS: ParameterLocation[] = ["path", "query", "header", "cookie"];

/**
 * Binds parameters to argument names in path, query, header, cookie order. A name already taken (by `body` or an
 * earlier parameter) becomes `<in>_<name>`, so collisions resolve the same way on every run. Header parameters that
 * frame, route or authenticate the request are dropped (with one warning in `warnings`, beyond the three OpenAPI
 * itself ignores).
 */
export function bindParameters(
  operation: OperationModel,
  override: OperationOverride,
  globals: ParameterGlobals,
  where: string,
  warnings: string[] = [],
): { binding: ParameterBinding; parameter: ParameterModel }[] {
  // `__proto__` or `constructor` as an argument would make the SDK client (zod) reject the whole tool list.
  const taken = new Set<string>(["body", "__proto__", "constructor"]);
  const prefixes = { ...globals.pathPrefixes, ...override.pathPrefixes };
  const problems: string[] = [];
  const pathNames = new Set(operation.parameters.filter((p) => p.in === "path").map((p) => p.name));
  for (const name of Object.keys(override.pathPrefixes ?? {})) {
    if (!pathNames.has(name)) {
      problems.push(`overrides.${where}.pathPrefixes: "${name}" is not a path parameter of this operation${didYouMean(name, pathNames)}`);
    }
  }
  const bindings: { binding: ParameterBinding; parameter: ParameterModel }[] = [];
  const dropped: string[] = [];
  for (const parameter of LOCATIONS.flatMap((location) => operation.parameters.filter((p) => p.in === location))) {
    const refusal = parameter.in === "header" ? headerRefusal(parameter.name) : undefined;
    if (refusal !== undefined) {
      if (!isOpenApiIgnoredHeader(parameter.name)) dropped.push(`${JSON.stringify(parameter.name)} ${refusal}`);
      continue;
    }
    const supplied = suppliedBy(parameter.name, override.parameters, globals.parameters);
    if (supplied?.hide) {
      if (parameter.required)
        problems.push(
          `${where}: the ${parameter.in} parameter "${parameter.name}" is required, so it cannot be hidden; give it a value or env`,
        );
      continue;
    }
    const source = supplied?.source;
    let argument = parameter.name;
    if (taken.has(argument)) argument = `${parameter.in}_${parameter.name}`;
    for (let n = 2; taken.has(argument); n++) argument = `${parameter.in}_${parameter.name}_${n}`;
    taken.add(argument);
    const prefix = parameter.in === "path" && Object.hasOwn(prefixes, parameter.name) ? prefixes[parameter.name] : undefined;
    const binding: ParameterBinding = {
      argument,
      name: parameter.name,
      in: parameter.in,
      required: parameter.required,
      ...(prefix !== undefined ? { prefixes: typeof prefix === "string" ? [prefix] : [...prefix] } : {}),
      ...serialization(parameter),
      ...(source !== undefined ? { source } : {}),
    };
    bindings.push({ binding, parameter });
  }
  if (problems.length > 0) throw new UserError(problems);
  if (dropped.length > 0) warnings.push(`${where}: header parameter(s) left out: ${dropped.join("; ")}`);
  return bindings;
}

/**
 * What the config says the server supplies for a parameter or body property name (the operation's own entry wins over
 * the top-level one; own keys only): hidden, or the runtime's source (a fixed value or an environment variable).
 */
export function suppliedBy(
  name: string,
  own: ParameterSources | undefined,
  global: ParameterSources | undefined,
): { hide: boolean; source?: ParameterSource } | undefined {
  const entry = [own, global].find((sources) => sources !== undefined && Object.hasOwn(sources, name))?.[name];
  if (entry === undefined) return undefined;
  if (entry.env !== undefined) return { hide: false, source: { env: entry.env } };
  if (entry.value !== undefined) return { hide: false, source: { value: entry.value } };
  return { hide: entry.hide === true };
}

/**
 * How a parameter travels, where it differs from its location's default: style, explode, `allowReserved`, or the
 * media type of a `content`-declared parameter. @see https://spec.openapis.org/oas/v3.1.1#parameter-object
 */
function serialization(parameter: ParameterModel): Pick<ParameterBinding, "style" | "explode" | "allowReserved" | "content"> {
  if (parameter.content !== undefined && parameter.schema === undefined) return { content: parameter.content.mediaType };
  const style = parameter.style !== undefined && parameter.style !== defaultStyle(parameter.in) ? parameter.style : undefined;
  const effective = style ?? defaultStyle(parameter.in);
  const explode = parameter.explode !== undefined && parameter.explode !== (effective === "form") ? parameter.explode : undefined;
  return {
    ...(style !== undefined ? { style } : {}),
    ...(explode !== undefined ? { explode } : {}),
    ...(parameter.in === "query" && parameter.allowReserved ? { allowReserved: true } : {}),
  };
}

/** Every path parameter must appear in the path: a parameter for a placeholder that is not there cannot be sent. */
export function checkPathParameters(operation: OperationModel, where: string): void {
  const unused = operation.parameters.filter((p) => p.in === "path" && !operation.path.includes(`{${p.name}}`));
  if (unused.length > 0)
    throw new UserError(`${where}: path parameter(s) ${unused.map((p) => p.name).join(", ")} do not appear in ${operation.path}`);
}

/** The input-schema property of a parameter: its schema with the parameter's description and notes. */
export function parameterSchema(converter: SchemaConverter, parameter: ParameterModel, binding: ParameterBinding): JsonObject {
  const schema = converter.convertRoot(parameter.schema ?? parameter.content?.schema);
  const notes: string[] = [];
  const own = typeof schema.description === "string" ? schema.description : undefined;
  const formatHint = own?.match(/\(format: [^)]*\)$/)?.[0];
  const description = parameter.description ? `${parameter.description}${formatHint ? ` ${formatHint}` : ""}` : own;
  if (description) notes.push(description);
  if (binding.prefixes) notes.push(`Also accepts the full resource name (${binding.prefixes.map((p) => `"${p}…"`).join(" or ")}).`);
  if (binding.argument !== binding.name) notes.push(`Sent as the ${binding.in} parameter "${binding.name}".`);
  if (parameter.deprecated) notes.push("Deprecated.");
  if (notes.length > 0) schema.description = notes.join("\n");
  return schema;
}
