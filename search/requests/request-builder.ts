import {
  type BodyBinding,
  buildUpstreamRequest,
  excerpt,
  type FieldEncoding,
  type HttpBinding,
  headerRefusal,
  headerValueProblem,
  isHeaderName,
  isJsonMediaType,
  type ParameterBinding,
  setOwn,
  someOf,
} from "oapi-mcp-gen-runtime";
import { isJsonObject, type JsonValue } from "../../openapi/document/index.js";
import { errorMessage } from "../../openapi/fetch/index.js";
import type { MediaTypeModel, OperationModel, ParameterModel, SecuritySchemeModel } from "../../openapi/model/index.js";
import { type GraphqlField, graphqlField, type LoadedApi, ToolFailure } from "../documents/index.js";
import { documented, SampleBuilder, type Unresolved } from "./sample-value.js";

/** What the caller gives `build_request`: parameter values by name, a body, another base URL. */
export interface RequestInput {
  parameters: Record<string, unknown>;
  body?: JsonValue;
  baseUrl?: string;
}

/** Where a credential goes, as the operation's security scheme says. */
export interface CredentialSlot {
  scheme: string;
  in: "header" | "query" | "cookie";
  name: string;
  /** The value shape, e.g. `Bearer {token}`. */
  value: string;
}

/** A request ready to send, with what could not be inferred marked. */
export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The body as sent (JSON or form text), or null. */
  body: string | null;
  credentials: CredentialSlot[];
  unresolved: Unresolved[];
  /** True when the operation needs no credential. */
  public: boolean;
}

/** Negotiation headers a caller's value still sets, though OpenAPI ignores them as parameters. */
const NEGOTIATED_HEADERS = new Set(["accept", "content-type"]);

/** Stand-ins for unresolved values: letters and digits only, so encoding and URL parsing leave them intact. */
class Placeholders {
  private readonly shown = new Map<string, string>();

  /** A stand-in token that renders as `{label}`. */
  token(label: string): string {
    const token = `oapimcpplaceholder${this.shown.size}x`;
    this.shown.set(token, `{${label.replace(/[{}\s]/g, "_")}}`);
    return token;
  }

  /** Text with every stand-in replaced by its `{label}`. */
  render(text: string): string {
    return text.replace(/oapimcpplaceholder\d+x/g, (token) => this.shown.get(token) ?? token);
  }
}

/** Builds the request an operation describes: server, encoded parameters, credentials' places, a body from examples. */
export async function buildRequest(api: LoadedApi, operation: OperationModel, input: RequestInput): Promise<BuiltRequest> {
  const unresolved: Unresolved[] = [];
  const placeholders = new Placeholders();
  const base = baseUrl(api, input.baseUrl, unresolved, placeholders);
  const graphql = graphqlField(operation);
  refuseUnknownNames(operation, graphql, input.parameters);
  const args: Record<string, unknown> = {};
  const bindings: ParameterBinding[] = [];
  const overrides: Record<string, string> = {};
  for (const [index, parameter] of operation.parameters.entries()) {
    const refusal = parameter.in === "header" ? headerRefusal(parameter.name) : undefined;
    if (refusal !== undefined) {
      // Never sent from a parameter: framing, routing and credential headers; a caller's Accept or Content-Type wins.
      const given = Object.hasOwn(input.parameters, parameter.name) ? input.parameters[parameter.name] : undefined;
      if (given === undefined) continue;
      const lower = parameter.name.toLowerCase();
      if (!NEGOTIATED_HEADERS.has(lower))
        throw new ToolFailure(`parameter '${excerpt(parameter.name, 40)}' cannot be set: the header ${refusal}`);
      overrides[lower] = headerText(given);
      continue;
    }
    const value = parameterValue(parameter, input.parameters, unresolved, placeholders);
    if (value === undefined) continue;
    // Errors name the argument: the parameter's name, with its location when another parameter shares the name.
    const shared = parameter.name === "body" || operation.parameters.some((other, at) => at !== index && other.name === parameter.name);
    const argument = shared ? `${parameter.in} ${parameter.name}` : parameter.name;
    bindings.push(binding(parameter, argument));
    args[argument] = value;
  }
  const media = chosenMedia(operation);
  const body = media === undefined ? undefined : bodyBinding(media, unresolved);
  if (graphql) args.body = input.body ?? graphqlBody(api, operation, graphql, input.parameters, unresolved);
  else if (media !== undefined && body !== undefined) args.body = input.body ?? mediaSample(api, operation, media, unresolved);
  const http: HttpBinding = {
    method: operation.method.toUpperCase() as HttpBinding["method"],
    // A GraphQL field is sent to the endpoint itself (the base URL), its operation in the body.
    path: graphql ? "" : operation.path,
    parameters: bindings,
    ...(body ? { body } : {}),
    response: "json",
  };
  let request: Awaited<ReturnType<typeof buildUpstreamRequest>>;
  try {
    request = await buildUpstreamRequest(http, args, base);
  } catch (error) {
    throw new ToolFailure(`cannot build the request: ${errorMessage(error)}`);
  }
  const credentials = credentialSlots(api, operation, placeholders, unresolved);
  for (const slot of credentials) placeCredential(request, slot);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...request.headers, ...overrides })) headers[name] = placeholders.render(value);
  return {
    method: request.method,
    url: placeholders.render(request.url.href),
    headers,
    body: request.body === undefined ? null : placeholders.render(String(request.body)),
    credentials: credentials.map((slot) => ({ ...slot, value: placeholders.render(slot.value) })),
    unresolved,
    public: operation.security.public,
  };
}

/** Refuses parameter (or GraphQL variable) names the operation does not declare, naming those it does. */
function refuseUnknownNames(operation: OperationModel, graphql: GraphqlField | undefined, given: Record<string, unknown>): void {
  const known = graphql ? graphql.arguments : operation.parameters.map((parameter) => parameter.name);
  const declared = new Set(known);
  const unknown = Object.keys(given).filter((name) => !declared.has(name));
  if (unknown.length === 0) return;
  const takes = graphql
    ? `${operation.operationId ?? operation.path} takes the variables ${someOf(known, 40) || "(none)"}`
    : `${operation.method.toUpperCase()} ${operation.path} takes ${someOf(known, 40) || "no parameters"}`;
  const named = someOf(
    unknown.map((name) => `'${excerpt(name, 40)}'`),
    10,
  );
  throw new ToolFailure(`unknown parameter${unknown.length > 1 ? "s" : ""} ${named}; ${takes}`);
}

/** Puts a credential placeholder where its scheme says (a query pair is appended as text, keeping the styled query). */
function placeCredential(request: { url: URL; headers: Record<string, string> }, slot: CredentialSlot): void {
  if (slot.in === "header") request.headers[slot.name.toLowerCase()] = slot.value;
  else if (slot.in === "query")
    request.url.search = `${request.url.search ? `${request.url.search}&` : "?"}${encodeURIComponent(slot.name)}=${slot.value}`;
  else request.headers.cookie = [request.headers.cookie, `${slot.name}=${slot.value}`].filter(Boolean).join("; ");
}

/** The base URL: the caller's, else the document's first server with its variables' defaults. */
function baseUrl(api: LoadedApi, given: string | undefined, unresolved: Unresolved[], placeholders: Placeholders): URL {
  const server = api.model.servers[0];
  if (given !== undefined) {
    const url = URL.canParse(given) ? new URL(given) : undefined;
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password)
      throw new ToolFailure("base_url must be an http(s) URL without credentials");
    // An origin alone keeps a relative server path of the document (Swagger 2.0's basePath, `/api/v1`).
    if (url.pathname === "/" && server?.url.startsWith("/")) url.pathname = server.url;
    return url;
  }
  let text = server?.url ?? "/";
  text = text.replace(/\{([^{}]*)\}/g, (_, variable: string) => {
    const value = server?.variableDefaults.get(variable);
    if (value !== undefined) return value;
    unresolved.push({ where: "server", name: variable, reason: "the server variable has no default" });
    return placeholders.token(variable);
  });
  if (/^https?:\/\//i.test(text) && URL.canParse(text)) return new URL(text);
  unresolved.push({
    where: "server",
    name: "host",
    reason: server
      ? `the document's server URL '${server.url}' is relative; pass base_url`
      : api.kind === "graphql"
        ? "a GraphQL schema names no endpoint; pass base_url (the endpoint's URL)"
        : "the document names no server; pass base_url",
  });
  return new URL(`https://${placeholders.token("host")}${text.startsWith("/") ? text : `/${text}`}`);
}

/** The caller's value, else the document's example or default; a required one without either becomes a placeholder. */
function parameterValue(
  parameter: ParameterModel,
  given: Record<string, unknown>,
  unresolved: Unresolved[],
  placeholders: Placeholders,
): unknown {
  if (Object.hasOwn(given, parameter.name)) return given[parameter.name];
  const declared = parameter.declared.example ?? firstExample(parameter.declared.examples);
  const schema = typeof parameter.schema === "object" && parameter.schema !== null ? parameter.schema : undefined;
  const inferred = declared ?? (schema ? documented(schema) : undefined);
  if (!parameter.required) return undefined;
  if (inferred !== undefined) return inferred;
  unresolved.push({ where: parameter.in, name: parameter.name, reason: "required, and the document gives no example or default" });
  return placeholders.token(parameter.name);
}

function binding(parameter: ParameterModel, argument: string): ParameterBinding {
  return {
    argument,
    name: parameter.name,
    in: parameter.in,
    required: parameter.required,
    ...(parameter.style !== undefined ? { style: parameter.style } : {}),
    ...(parameter.explode !== undefined ? { explode: parameter.explode } : {}),
    ...(parameter.allowReserved ? { allowReserved: true } : {}),
    ...(parameter.content ? { content: parameter.content.mediaType } : {}),
  };
}

/** The body's media type: JSON when offered, else the first one. */
function chosenMedia(operation: OperationModel): MediaTypeModel | undefined {
  const content = operation.requestBody?.content ?? [];
  return content.find((media) => isJsonMediaType(media.mediaType)) ?? content[0];
}

/** How the body travels; multipart and binary bodies are marked for the caller to fill. */
function bodyBinding(media: MediaTypeModel, unresolved: Unresolved[]): BodyBinding | undefined {
  const type = media.mediaType.toLowerCase();
  if (isJsonMediaType(type)) return { mediaType: media.mediaType, kind: "json" };
  if (type === "application/x-www-form-urlencoded") {
    // The Encoding Object's serialisation (style, explode, allowReserved, contentType); part headers are multipart's.
    const encoding: Record<string, FieldEncoding> = {};
    for (const [name, { headers: _, ...fields }] of media.encoding) setOwn(encoding, name, fields);
    return { mediaType: media.mediaType, kind: "form", ...(media.encoding.size > 0 ? { encoding } : {}) };
  }
  if (type.startsWith("text/")) return { mediaType: media.mediaType, kind: "text" };
  unresolved.push({
    where: "body",
    name: "/",
    reason: `bodies of type ${media.mediaType} are not built here; attach the content yourself`,
  });
  return undefined;
}

/** A header value the caller gave, as text on one line. */
function headerText(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const problem = headerValueProblem(text);
  if (problem !== undefined) throw new ToolFailure(`header values ${problem}`);
  return text;
}

/** A GraphQL request body: the operation, and its variables from the caller's values, else from their schemas. */
function graphqlBody(
  api: LoadedApi,
  operation: OperationModel,
  field: GraphqlField,
  given: Record<string, unknown>,
  unresolved: Unresolved[],
): JsonValue {
  const schema = operation.requestBody?.content[0]?.schema;
  const resolved = typeof schema === "object" && schema !== null ? schema.properties?.get("variables") : undefined;
  const sampled = new SampleBuilder(api.model.schemas, unresolved, (name) => !Object.hasOwn(given, name)).build(resolved, "/variables");
  const variables = isJsonObject(sampled) ? { ...sampled } : {};
  for (const name of field.arguments) if (Object.hasOwn(given, name)) variables[name] = given[name] as JsonValue;
  return { query: field.query, variables };
}

/** The media type's own example (or first named example), else a sample built from its schema. */
function mediaSample(api: LoadedApi, operation: OperationModel, media: MediaTypeModel, unresolved: Unresolved[]): JsonValue {
  const content = operation.requestBody?.declared.content;
  const written = isJsonObject(content) ? content[media.mediaType] : undefined;
  const declared = isJsonObject(written) ? (written.example ?? firstExample(written.examples)) : undefined;
  if (declared !== undefined) return declared;
  return new SampleBuilder(api.model.schemas, unresolved).build(media.schema);
}

function firstExample(examples: JsonValue | undefined): JsonValue | undefined {
  if (!isJsonObject(examples)) return undefined;
  for (const example of Object.values(examples)) if (isJsonObject(example) && example.value !== undefined) return example.value;
  return undefined;
}

/** Where the operation's credentials go: the first security requirement's schemes, as placeholders. */
function credentialSlots(
  api: LoadedApi,
  operation: OperationModel,
  placeholders: Placeholders,
  unresolved: Unresolved[],
): CredentialSlot[] {
  const { security } = operation;
  if (security.public) return [];
  const requirement = security.requirements.find((entry) => Object.keys(entry).length > 0) ?? {};
  const slots: CredentialSlot[] = [];
  for (const schemeName of Object.keys(requirement)) {
    const scheme = api.model.securitySchemes.get(schemeName);
    if (!scheme) continue;
    const slot = slotOf(schemeName, scheme, placeholders);
    if (!slot) continue;
    unresolved.push({ where: "credentials", name: schemeName, reason: `put your ${scheme.type} credential in ${slot.in} '${slot.name}'` });
    slots.push(slot);
  }
  return slots;
}

/** Where a scheme's credential goes, with a placeholder for it; undefined for a scheme without one place. */
function slotOf(schemeName: string, scheme: SecuritySchemeModel, placeholders: Placeholders): CredentialSlot | undefined {
  const { type, in: location, parameterName } = scheme;
  // A header or cookie name the document spells wrongly (line breaks, spaces) would forge the rendered request.
  if (type === "apiKey" && parameterName && location !== "query" && !isHeaderName(parameterName)) return undefined;
  if (type === "apiKey" && parameterName && (location === "header" || location === "query" || location === "cookie"))
    return { scheme: schemeName, in: location, name: parameterName, value: placeholders.token("api_key") };
  if (type === "http" && scheme.scheme === "basic")
    return { scheme: schemeName, in: "header", name: "Authorization", value: `Basic ${placeholders.token("base64_user_password")}` };
  if (type === "http" || type === "oauth2" || type === "openIdConnect")
    return { scheme: schemeName, in: "header", name: "Authorization", value: `Bearer ${placeholders.token("token")}` };
  return undefined;
}

/** The request as a curl command (single-quoted for a POSIX shell). */
export function curlCommand(request: BuiltRequest): string {
  // -g: the {placeholders} of a URL are text, not curl's globbing patterns.
  const lines = [`curl -g -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (request.body !== null) lines.push(`--data-raw ${shellQuote(request.body)}`);
  return lines.join(" \\\n  ");
}

/** The request as JavaScript `fetch` code; every document-derived value is a JSON literal. */
export function fetchCode(request: BuiltRequest): string {
  const options: string[] = [
    `  method: ${JSON.stringify(request.method)},`,
    `  headers: ${JSON.stringify(request.headers, null, 2).replace(/\n/g, "\n  ")},`,
  ];
  if (request.body !== null) options.push(`  body: ${JSON.stringify(request.body)},`);
  return `const response = await fetch(${JSON.stringify(request.url)}, {\n${options.join("\n")}\n});`;
}

/** The request as an HTTP/1.1 message (CRLF line ends). */
export function httpMessage(request: BuiltRequest): string {
  const afterScheme = request.url.slice(request.url.indexOf("://") + 3);
  const cut = afterScheme.search(/[/?#]/);
  const host = cut < 0 ? afterScheme : afterScheme.slice(0, cut);
  const target = cut < 0 ? "/" : afterScheme.slice(cut).replace(/#.*$/, "");
  const lines = [`${request.method} ${target} HTTP/1.1`, `host: ${host}`];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (request.body !== null) lines.push(`content-length: ${Buffer.byteLength(request.body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${request.body ?? ""}`;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
