import { defaultStyle, type ParameterBinding } from "oapi-mcp-gen-runtime";
import type { OperationEntry } from "../openapi/operations.js";
import { didYouMean } from "../openapi/suggest.js";
import { isJsonObject, type JsonObject, type ParameterObject } from "../openapi/types.js";
import type { OperationOverride } from "./config.js";
import { UserError } from "./errors.js";
import type { SchemaConverter } from "./json-schema.js";

export type { ParameterBinding };

/** Headers the OpenAPI specification says a `header` parameter cannot define. */
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization"]);
const LOCATIONS: ParameterObject["in"][] = ["path", "query", "header", "cookie"];

/**
 * Binds parameters to argument names in path, query, header, cookie order. A name already taken (by `body` or an
 * earlier parameter) becomes `<in>_<name>`, so collisions resolve the same way on every run.
 */
export function bindParameters(
  entry: OperationEntry,
  override: OperationOverride,
  globalPrefixes: Record<string, string | string[]>,
  where: string,
): ParameterBinding[] {
  // `__proto__` or `constructor` as an argument would make the SDK client (zod) reject the whole tool list.
  const taken = new Set<string>(["body", "__proto__", "constructor"]);
  const prefixes = { ...globalPrefixes, ...override.pathPrefixes };
  const pathNames = new Set(entry.parameters.filter((p) => p.in === "path").map((p) => p.name));
  for (const name of Object.keys(override.pathPrefixes ?? {})) {
    if (!pathNames.has(name)) {
      throw new UserError(
        `overrides.${where}.pathPrefixes: "${name}" is not a path parameter of this operation${didYouMean(name, pathNames)}`,
      );
    }
  }
  const bindings: ParameterBinding[] = [];
  for (const parameter of LOCATIONS.flatMap((location) => entry.parameters.filter((p) => p.in === location))) {
    if (parameter.in === "header" && RESERVED_HEADERS.has(parameter.name.toLowerCase())) continue;
    let argument = parameter.name;
    if (taken.has(argument)) argument = `${parameter.in}_${parameter.name}`;
    for (let n = 2; taken.has(argument); n++) argument = `${parameter.in}_${parameter.name}_${n}`;
    taken.add(argument);
    const prefix = parameter.in === "path" && Object.hasOwn(prefixes, parameter.name) ? prefixes[parameter.name] : undefined;
    bindings.push({
      argument,
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === "path" || parameter.required === true,
      ...(prefix !== undefined ? { prefixes: typeof prefix === "string" ? [prefix] : [...prefix] } : {}),
      ...serialization(parameter),
    });
  }
  return bindings;
}

/**
 * How a parameter travels, where it differs from its location's default: style, explode, `allowReserved`, or the
 * media type of a `content`-declared parameter. @see https://spec.openapis.org/oas/v3.1.1#parameter-object
 */
function serialization(parameter: ParameterObject): Pick<ParameterBinding, "style" | "explode" | "allowReserved" | "content"> {
  const mediaType = isJsonObject(parameter.content) ? Object.keys(parameter.content)[0] : undefined;
  if (mediaType !== undefined && parameter.schema === undefined) return { content: mediaType };
  const style = typeof parameter.style === "string" && parameter.style !== defaultStyle(parameter.in) ? parameter.style : undefined;
  const effective = style ?? defaultStyle(parameter.in);
  const explode = typeof parameter.explode === "boolean" && parameter.explode !== (effective === "form") ? parameter.explode : undefined;
  return {
    ...(style !== undefined ? { style } : {}),
    ...(explode !== undefined ? { explode } : {}),
    ...(parameter.in === "query" && parameter.allowReserved === true ? { allowReserved: true } : {}),
  };
}

/**
 * The operation's parameters with every `{placeholder}` of its path declared: a placeholder the document forgot
 * becomes a required string parameter (with a warning), so the path can always be filled in.
 */
export function completePathParameters(entry: OperationEntry, where: string): { parameters: ParameterObject[]; warnings: string[] } {
  const parameters = [...entry.parameters];
  const warnings: string[] = [];
  for (const placeholder of entry.path.match(/\{[^{}]+\}/g) ?? []) {
    const name = placeholder.slice(1, -1);
    if (parameters.some((p) => p.in === "path" && p.name === name)) continue;
    parameters.push({ name, in: "path", required: true, schema: { type: "string" } });
    warnings.push(`${where}: path placeholder ${placeholder} has no parameter in the document; it is taken as a required string`);
  }
  const unused = parameters.filter((p) => p.in === "path" && !entry.path.includes(`{${p.name}}`));
  if (unused.length > 0)
    throw new UserError(`${where}: path parameter(s) ${unused.map((p) => p.name).join(", ")} do not appear in ${entry.path}`);
  return { parameters, warnings };
}

/** The input-schema property of a parameter: its schema with the parameter's description and notes. */
export function parameterSchema(converter: SchemaConverter, parameter: ParameterObject, binding: ParameterBinding): JsonObject {
  const raw = parameter.schema ?? firstMediaSchema(parameter as unknown as JsonObject);
  const schema = converter.convertRoot(raw);
  const notes: string[] = [];
  const own = typeof schema.description === "string" ? schema.description : undefined;
  const formatHint = own?.match(/\(format: [^)]*\)$/)?.[0];
  const description = parameter.description ? `${parameter.description}${formatHint ? ` ${formatHint}` : ""}` : own;
  if (description) notes.push(description);
  if (binding.prefixes) notes.push(`Also accepts the full resource name (${binding.prefixes.map((p) => `"${p}…"`).join(" or ")}).`);
  if (binding.argument !== binding.name) notes.push(`Sent as the ${binding.in} parameter "${binding.name}".`);
  if (parameter.deprecated === true) notes.push("Deprecated.");
  if (notes.length > 0) schema.description = notes.join("\n");
  return schema;
}

function firstMediaSchema(holder: JsonObject): JsonObject | undefined {
  if (!isJsonObject(holder.content)) return undefined;
  const first = Object.values(holder.content)[0];
  return isJsonObject(first) && isJsonObject(first.schema) ? first.schema : undefined;
}
