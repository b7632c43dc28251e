import { DocumentParseError, isJsonObject, type JsonObject, type JsonValue, type OpenApiDocument } from "../document/index.js";
import { derefObject } from "../references/index.js";
import type {
  ApiModel,
  EncodingModel,
  MediaTypeModel,
  OperationModel,
  ParameterLocation,
  ParameterModel,
  RequestBodyModel,
  ResponseModel,
  SecurityModel,
  SecurityRequirement,
  SecuritySchemeModel,
  ServerModel,
} from "./model.js";
import { listOperations, type OperationEntry } from "./operations.js";
import { readSchema } from "./schema.js";
import { SchemaCatalog } from "./schema-catalog.js";

const LOCATIONS: readonly ParameterLocation[] = ["path", "query", "header", "cookie"];

/** Reads a document once into the model both systems use; throws a DocumentParseError naming the place it cannot read. */
export function buildApiModel(document: OpenApiDocument): ApiModel {
  return assemble(
    document,
    listOperations(document).map((entry, index) => operationModel(document, entry, index)),
  );
}

/**
 * The same model, read a slice of operations at a time with a turn of the event loop between slices: a server
 * reading a document of thousands of operations keeps answering meanwhile.
 */
export async function buildApiModelInSlices(document: OpenApiDocument, slice = 500): Promise<ApiModel> {
  const entries = listOperations(document);
  const operations: OperationModel[] = [];
  for (const [index, entry] of entries.entries()) {
    if (index > 0 && index % slice === 0) await new Promise((resolve) => setImmediate(resolve));
    operations.push(operationModel(document, entry, index));
  }
  return assemble(document, operations);
}

function assemble(document: OpenApiDocument, operations: OperationModel[]): ApiModel {
  const info = isJsonObject(document.info) ? document.info : {};
  return {
    document,
    info: { title: text(info.title) ?? "", version: text(info.version) ?? "", description: text(info.description) ?? "" },
    servers: serversOf(document.servers),
    tags: tagsOf(document.tags, operations),
    operations,
    securitySchemes: securitySchemesOf(document),
    globalSecurity: securityOf(undefined, document.security).requirements,
    schemas: new SchemaCatalog(document),
    paths: isJsonObject(document.paths) ? Object.keys(document.paths) : [],
    webhookCount: isJsonObject(document.webhooks) ? Object.keys(document.webhooks).length : 0,
  };
}

/** A description that says of its own operation that it is deprecated (Zoom: "Note: This API has been deprecated"). */
const SAYS_DEPRECATED = /\bthis (?:api|endpoint|operation|method|route|call) (?:is|has been|was) (?:now )?deprecated\b/i;

/**
 * Whether a document marks an operation deprecated: `deprecated: true`, a vendor's mark (Square's `x-release-status:
 * DEPRECATED`, `x-deprecated`, `x-is-deprecated`), a summary or description that begins by saying so, or one that says
 * this operation is deprecated.
 */
function isDeprecated(operation: JsonObject): boolean {
  if (operation.deprecated === true || operation["x-deprecated"] === true || operation["x-is-deprecated"] === true) return true;
  const status = operation["x-release-status"] ?? operation["x-status"] ?? operation["x-lifecycle"];
  if (typeof status === "string" && /^deprecated$/i.test(status.trim())) return true;
  return [operation.summary, operation.description].some(
    (said) => typeof said === "string" && (/^\W{0,4}deprecated\b/i.test(said.trim()) || SAYS_DEPRECATED.test(said)),
  );
}

function text(value: JsonValue | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function operationModel(document: OpenApiDocument, entry: OperationEntry, index: number): OperationModel {
  const { operation } = entry;
  const where = entry.operationId ?? `${entry.method.toUpperCase()} ${entry.path}`;
  const { parameters, warnings } = withPathPlaceholders(entry.parameters.flatMap(parameterModel), entry.path, where);
  const base = {
    index,
    ...(entry.operationId !== undefined ? { operationId: entry.operationId } : {}),
    method: entry.method,
    path: entry.path,
    ...(typeof operation.summary === "string" ? { summary: operation.summary } : {}),
    ...(typeof operation.description === "string" ? { description: operation.description } : {}),
    tags: Array.isArray(operation.tags) ? operation.tags.filter((tag) => typeof tag === "string") : [],
    deprecated: isDeprecated(operation),
    parameters,
    security: securityOf(operation.security, document.security),
    warnings,
    declared: operation,
  };
  try {
    const requestBody = requestBodyOf(document, operation.requestBody);
    return { ...base, ...(requestBody ? { requestBody } : {}), responses: responsesOf(document, operation.responses) };
  } catch (error) {
    if (!(error instanceof DocumentParseError)) throw error;
    return { ...base, responses: [], problem: error.message };
  }
}

function parameterModel(declared: JsonObject): ParameterModel[] {
  const location = LOCATIONS.find((candidate) => candidate === declared.in);
  if (location === undefined || typeof declared.name !== "string") return [];
  const content = isJsonObject(declared.content) ? Object.entries(declared.content)[0] : undefined;
  return [
    {
      name: declared.name,
      in: location,
      required: location === "path" || declared.required === true,
      ...(typeof declared.description === "string" ? { description: declared.description } : {}),
      deprecated: declared.deprecated === true,
      ...(typeof declared.style === "string" ? { style: declared.style } : {}),
      ...(typeof declared.explode === "boolean" ? { explode: declared.explode } : {}),
      allowReserved: declared.allowReserved === true,
      ...(declared.schema !== undefined ? { schema: readSchema(declared.schema) } : {}),
      ...(content ? { content: { mediaType: content[0], ...schemaOf(content[1]) } } : {}),
      synthesized: false,
      declared,
    },
  ];
}

/** Every `{placeholder}` of the path gets a parameter: one the document forgot is a required string (with a warning). */
function withPathPlaceholders(
  parameters: ParameterModel[],
  path: string,
  where: string,
): { parameters: ParameterModel[]; warnings: string[] } {
  const warnings: string[] = [];
  const all = [...parameters];
  for (const placeholder of path.match(/\{[^{}]+\}/g) ?? []) {
    const name = placeholder.slice(1, -1);
    if (all.some((p) => p.in === "path" && p.name === name)) continue;
    const declared: JsonObject = { name, in: "path", required: true, schema: { type: "string" } };
    all.push({
      name,
      in: "path",
      required: true,
      deprecated: false,
      allowReserved: false,
      schema: readSchema(declared.schema),
      synthesized: true,
      declared,
    });
    warnings.push(`${where}: path placeholder ${placeholder} has no parameter in the document; it is taken as a required string`);
  }
  return { parameters: all, warnings };
}

function schemaOf(media: JsonValue | undefined): { schema?: ReturnType<typeof readSchema> } {
  return isJsonObject(media) && media.schema !== undefined ? { schema: readSchema(media.schema) } : {};
}

function contentOf(document: OpenApiDocument, content: JsonValue | undefined): MediaTypeModel[] {
  if (!isJsonObject(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => ({
    mediaType,
    ...schemaOf(media),
    encoding: encodingOf(document, media),
  }));
}

function encodingOf(document: OpenApiDocument, media: JsonValue): Map<string, EncodingModel> {
  const encoding = new Map<string, EncodingModel>();
  if (!isJsonObject(media) || !isJsonObject(media.encoding)) return encoding;
  for (const [name, value] of Object.entries(media.encoding)) {
    if (!isJsonObject(value)) continue;
    const headers = partHeaders(document, value.headers);
    const entry = {
      ...(typeof value.style === "string" ? { style: value.style } : {}),
      ...(typeof value.explode === "boolean" ? { explode: value.explode } : {}),
      ...(typeof value.allowReserved === "boolean" ? { allowReserved: value.allowReserved } : {}),
      ...(typeof value.contentType === "string" ? { contentType: value.contentType } : {}),
      ...(headers.size > 0 ? { headers } : {}),
    };
    if (Object.keys(entry).length > 0) encoding.set(name, entry);
  }
  return encoding;
}

/**
 * The part headers of an Encoding Object whose value the document fixes (its schema's `const`, `default` or single
 * `enum` value, a primitive): what a multipart part can carry without asking the caller. `Content-Type` is the
 * Encoding Object's own field and is left out, as the specification says.
 */
function partHeaders(document: OpenApiDocument, node: JsonValue | undefined): Map<string, string> {
  const headers = new Map<string, string>();
  if (!isJsonObject(node)) return headers;
  for (const [name, raw] of Object.entries(node)) {
    if (name.toLowerCase() === "content-type") continue;
    const header = derefObject(document, raw);
    const schema = header ? derefObject(document, header.schema) : undefined;
    const fixed =
      schema?.const ?? schema?.default ?? (Array.isArray(schema?.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined);
    if (typeof fixed === "string" || typeof fixed === "number" || typeof fixed === "boolean") headers.set(name, String(fixed));
  }
  return headers;
}

function requestBodyOf(document: OpenApiDocument, node: JsonValue | undefined): RequestBodyModel | undefined {
  const declared = derefObject(document, node);
  if (!declared) return undefined;
  return {
    ...(typeof declared.description === "string" ? { description: declared.description } : {}),
    required: declared.required === true,
    content: contentOf(document, declared.content),
    declared,
  };
}

function responsesOf(document: OpenApiDocument, node: JsonValue | undefined): ResponseModel[] {
  if (!isJsonObject(node)) return [];
  return Object.entries(node).map(([status, value]) => {
    const declared = derefObject(document, value) ?? {};
    return {
      status,
      ...(typeof declared.description === "string" ? { description: declared.description } : {}),
      content: contentOf(document, declared.content),
      declared,
    };
  });
}

/**
 * Operation security overrides the document's; an empty requirement list (or an empty requirement) is public. A
 * requirement a document repeats (XTRF lists its one token four times) is kept once: the alternatives are the same.
 */
function securityOf(own: JsonValue | undefined, global: JsonValue | undefined): SecurityModel {
  const source = Array.isArray(own) ? "operation" : Array.isArray(global) ? "global" : "none";
  const list = Array.isArray(own) ? own : Array.isArray(global) ? global : [];
  const seen = new Set<string>();
  const requirements: SecurityRequirement[] = list
    .filter(isJsonObject)
    .map((requirement) =>
      Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.map(String) : []])),
    )
    .filter((requirement) => {
      const key = JSON.stringify(
        Object.entries(requirement)
          .map(([name, scopes]) => [name, [...scopes].sort()])
          .sort(),
      );
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return { requirements, source, public: requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0) };
}

function securitySchemesOf(document: OpenApiDocument): Map<string, SecuritySchemeModel> {
  const components = isJsonObject(document.components) ? document.components : {};
  const schemes = isJsonObject(components.securitySchemes) ? components.securitySchemes : {};
  const out = new Map<string, SecuritySchemeModel>();
  for (const [name, declared] of Object.entries(schemes)) {
    if (!isJsonObject(declared) || typeof declared.type !== "string") continue;
    const flows = isJsonObject(declared.flows) ? declared.flows : {};
    const client = isJsonObject(flows.clientCredentials) ? flows.clientCredentials : {};
    const code = isJsonObject(flows.authorizationCode) ? flows.authorizationCode : {};
    const { authorizationUrl, tokenUrl } = code;
    out.set(name, {
      type: declared.type,
      ...(typeof declared.description === "string" ? { description: declared.description } : {}),
      ...(typeof declared.in === "string" ? { in: declared.in } : {}),
      ...(typeof declared.name === "string" ? { parameterName: declared.name } : {}),
      ...(typeof declared.scheme === "string" ? { scheme: declared.scheme.toLowerCase() } : {}),
      ...(typeof client.tokenUrl === "string" ? { clientCredentialsTokenUrl: client.tokenUrl } : {}),
      ...(typeof authorizationUrl === "string" && typeof tokenUrl === "string"
        ? { authorizationCode: { authorizationUrl, tokenUrl } }
        : {}),
      declared,
    });
  }
  return out;
}

function serversOf(node: JsonValue | undefined): ServerModel[] {
  if (!Array.isArray(node)) return [];
  return node.filter(isJsonObject).flatMap((server) => {
    if (typeof server.url !== "string") return [];
    const variables = isJsonObject(server.variables) ? server.variables : {};
    const defaults = new Map<string, string>();
    for (const [name, variable] of Object.entries(variables))
      if (isJsonObject(variable) && typeof variable.default === "string") defaults.set(name, variable.default);
    return [{ url: server.url, variableDefaults: defaults }];
  });
}

function tagsOf(node: JsonValue | undefined, operations: readonly OperationModel[]): { name: string; description: string }[] {
  const tags = new Map<string, string>();
  for (const tag of Array.isArray(node) ? node : []) {
    if (isJsonObject(tag) && typeof tag.name === "string") tags.set(tag.name, text(tag.description) ?? "");
  }
  for (const operation of operations) for (const tag of operation.tags) if (!tags.has(tag)) tags.set(tag, "");
  return [...tags].map(([name, description]) => ({ name, description }));
}
