import {
  buildClientSchema,
  buildSchema,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  type IntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
} from "graphql";
import { DocumentParseError, type JsonObject, type OpenApiDocument } from "../../openapi/document/index.js";

/** The root operation types, as GraphQL names them, with the tag their fields get. */
const ROOTS = [
  ["query", "getQueryType"],
  ["mutation", "getMutationType"],
  ["subscription", "getSubscriptionType"],
] as const;

const SCALARS: Record<string, JsonObject> = {
  Int: { type: "integer", format: "int32" },
  Float: { type: "number" },
  String: { type: "string" },
  Boolean: { type: "boolean" },
  ID: { type: "string", description: "A unique identifier (GraphQL ID)." },
};

/** The scalar fields one level of a selection lists: past them, an operation's query would repeat a wide type whole. */
const MAX_SELECTED_LEAVES = 100;

/** How deep a selection set goes into object fields. */
const SELECTION_DEPTH = 1;

/** Brackets a GraphQL text may nest (`[[[String]]]` is three): real schemas nest a handful; thousands stall parsers. */
const MAX_GRAPHQL_NESTING = 64;
/** Brackets an introspection result (JSON) may nest: each list or non-null wrapper is two levels. */
const MAX_INTROSPECTION_NESTING = 256;
/** Tokens graphql-js may read from one SDL text (GitHub's schema is about 300,000). */
const MAX_SDL_TOKENS = 2_000_000;

/**
 * The deepest bracket nesting of a text (`[`, `{`, `(`), outside strings and comments; counted before any parser
 * runs, so a text nested thousands deep is refused in one pass.
 */
export function bracketDepth(text: string, comments: boolean): number {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      const block = text.startsWith('"""', at);
      const end = block ? text.indexOf('"""', at + 3) : closingQuote(text, at);
      if (end < 0) break;
      at = block ? end + 2 : end;
    } else if (comments && char === "#") {
      const end = text.indexOf("\n", at);
      if (end < 0) break;
      at = end;
    } else if (char === "[" || char === "{" || char === "(") deepest = Math.max(deepest, ++depth);
    else if (char === "]" || char === "}" || char === ")") depth--;
  }
  return deepest;
}

/** Where the string opened at `start` ends (a backslash escapes the next character), or -1. */
function closingQuote(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === '"') return at;
    else if (text[at] === "\n") return at;
  }
  return -1;
}

/** Which GraphQL form a text is in, if any: an introspection result (JSON) or SDL. */
export function graphqlKind(text: string): "introspection" | "sdl" | undefined {
  const start = text.trimStart();
  if (start.startsWith("{")) return /"__schema"\s*:/.test(start.slice(0, 4096)) ? "introspection" : undefined;
  if (/^\s*(?:openapi|swagger)\s*:/m.test(text)) return undefined;
  const definitions = /^\s*(?:extend\s+)?(?:type|schema|interface|enum|input|union|scalar|directive)\b[^:\n]*(?:\{|=|@|$)/m;
  return definitions.test(text) &&
    !/^\s*[\w"'-]+\s*:\s/m.test(text.split("\n").find((line) => line.trim() !== "" && !line.trim().startsWith("#")) ?? "")
    ? "sdl"
    : undefined;
}

/** A GraphQL schema (SDL or introspection JSON) read as an OpenAPI 3.1 document the exploring tools understand. */
export function graphqlDocument(text: string, kind: "introspection" | "sdl", label: string): OpenApiDocument {
  const limit = kind === "sdl" ? MAX_GRAPHQL_NESTING : MAX_INTROSPECTION_NESTING;
  const depth = bracketDepth(text, kind === "sdl");
  if (depth > limit)
    throw new DocumentParseError(`${label}: nests brackets ${depth} deep; this server reads GraphQL schemas nested at most ${limit} deep`);
  let schema: GraphQLSchema;
  try {
    if (kind === "sdl") schema = buildSchema(text, { assumeValidSDL: false, maxTokens: MAX_SDL_TOKENS });
    else {
      const parsed = JSON.parse(text) as { __schema?: unknown; data?: { __schema?: unknown } };
      const introspection = (parsed.__schema ? parsed : parsed.data) as IntrospectionQuery | undefined;
      if (!introspection?.__schema) throw new Error("no __schema in the introspection result");
      schema = buildClientSchema(introspection);
    }
  } catch (error) {
    throw new DocumentParseError(
      `${label}: not a valid GraphQL schema: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    );
  }
  return toOpenApi(schema, kind);
}

function toOpenApi(schema: GraphQLSchema, kind: string): OpenApiDocument {
  const paths: JsonObject = {};
  const tags: JsonObject[] = [];
  for (const [operationType, getter] of ROOTS) {
    const root = schema[getter]();
    if (!root) continue;
    tags.push({ name: root.name, description: `GraphQL ${operationType} fields${root.description ? `: ${root.description}` : ""}` });
    for (const field of Object.values(root.getFields())) {
      paths[`/${operationType}/${field.name}`] = { post: operation(operationType, root, field) };
    }
  }
  const schemas: JsonObject = {};
  for (const type of Object.values(schema.getTypeMap())) {
    // Introspection types and the built-in scalars (inlined as JSON types) are not the schema's own.
    if (type.name.startsWith("__") || Object.hasOwn(SCALARS, type.name)) continue;
    schemas[type.name] = namedTypeSchema(type);
  }
  return {
    openapi: "3.1.0",
    info: { title: schema.description ?? `GraphQL schema (${kind})`, version: "graphql", description: schema.description ?? "" },
    tags,
    paths,
    components: { schemas },
  } as OpenApiDocument;
}

function operation(operationType: string, root: GraphQLObjectType, field: GraphQLField<unknown, unknown>): JsonObject {
  const args = field.args;
  const variables: JsonObject = {};
  for (const arg of args) variables[arg.name] = argumentSchema(arg);
  const required = args.filter((arg) => isNonNullType(arg.type) && arg.defaultValue === undefined).map((arg) => arg.name);
  const signature = `${field.name}${args.length > 0 ? `(${argumentList(args)})` : ""}: ${String(field.type)}`;
  const streamed =
    operationType === "subscription"
      ? "A subscription: results are pushed over a streaming transport (WebSocket or Server-Sent Events), not answered by one POST."
      : "";
  // Arguments and the return type live in the request body and response schemas, so a comparison names what changed.
  const description = [field.description ?? "", streamed].filter((line) => line !== "").join("\n\n");
  return {
    operationId: `${operationType}.${field.name}`,
    summary: (field.description ?? `${operationType} ${field.name}`).split("\n")[0] ?? "",
    ...(description !== "" ? { description } : {}),
    tags: [root.name],
    ...(field.deprecationReason ? { deprecated: true } : {}),
    "x-graphql": {
      operationType,
      field: field.name,
      signature,
      arguments: args.map((arg) => arg.name),
      query: operationText(operationType, field),
    },
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["query", ...(required.length > 0 ? ["variables"] : [])],
            properties: {
              // Not the signature: its return type belongs to the responses, where a comparison looks for it.
              query: {
                type: "string",
                description: `The GraphQL ${operationType} text: the operation's x-graphql.query selects ${field.name} with its arguments as variables.`,
              },
              variables: { type: "object", properties: variables, ...(required.length > 0 ? { required } : {}) },
            },
          },
        },
      },
    },
    responses: {
      "200": {
        description: `The GraphQL response: data.${field.name} is ${String(field.type)}.`,
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: { data: { type: "object", properties: { [field.name]: typeSchema(field.type) } }, errors: { type: "array" } },
            },
          },
        },
      },
    },
  };
}

/** The operation a client sends: the field with its arguments as variables and a one-level selection. */
function operationText(operationType: string, field: GraphQLField<unknown, unknown>): string {
  const name = field.name.charAt(0).toUpperCase() + field.name.slice(1);
  const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(", ");
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  const selection = selectionOf(field.type, SELECTION_DEPTH);
  return `${operationType} ${name}${declared ? `(${declared})` : ""} { ${field.name}${passed ? `(${passed})` : ""}${selection} }`;
}

function selectionOf(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (!isObjectType(named) && !isInterfaceType(named)) return isUnionType(named) ? " { __typename }" : "";
  const fields = Object.values(named.getFields()).filter((field) => field.args.every((arg) => !isNonNullType(arg.type)));
  const leaves = fields.filter((field) => {
    const inner = getNamedType(field.type);
    return isScalarType(inner) || isEnumType(inner);
  });
  const leafSet = new Set(leaves);
  const nested = depth > 0 ? fields.filter((field) => !leafSet.has(field)).slice(0, 5) : [];
  const parts = [
    ...leaves.slice(0, MAX_SELECTED_LEAVES).map((field) => field.name),
    ...nested.map((field) => `${field.name}${selectionOf(field.type, depth - 1) || " { __typename }"}`),
  ];
  return ` { ${parts.length > 0 ? parts.join(" ") : "__typename"} }`;
}

/** Arguments as GraphQL writes them: `id: ID!, first: Int`. */
function argumentList(args: readonly GraphQLArgument[]): string {
  return args.map((arg) => `${arg.name}: ${String(arg.type)}`).join(", ");
}

function argumentSchema(arg: GraphQLArgument): JsonObject {
  const schema = typeSchema(arg.type);
  if (arg.description) schema.description = arg.description;
  if (arg.defaultValue !== undefined) schema.default = arg.defaultValue as JsonObject;
  return schema;
}

/** A GraphQL type reference as JSON Schema: lists become arrays, nullable types allow null, named types are $refs. */
function typeSchema(type: GraphQLOutputType | GraphQLInputType): JsonObject {
  if (isNonNullType(type)) return typeSchema(type.ofType);
  if (isListType(type)) return { type: "array", items: typeSchema(type.ofType as GraphQLOutputType) };
  const named = getNamedType(type);
  const scalar = Object.hasOwn(SCALARS, named.name) ? SCALARS[named.name] : undefined;
  return scalar ? { ...scalar } : { $ref: `#/components/schemas/${named.name}` };
}

function namedTypeSchema(type: GraphQLNamedType): JsonObject {
  const description: JsonObject = type.description ? { description: type.description } : {};
  if (isScalarType(type)) return { type: "string", ...description, "x-graphql-kind": "scalar" };
  if (isEnumType(type))
    return { type: "string", enum: type.getValues().map((value) => value.name), ...description, "x-graphql-kind": "enum" };
  if (isUnionType(type))
    return {
      oneOf: type.getTypes().map((member) => ({ $ref: `#/components/schemas/${member.name}` })),
      ...description,
      "x-graphql-kind": "union",
    };
  const fields = Object.values(type.getFields());
  const properties: JsonObject = {};
  for (const field of fields) {
    const schema = typeSchema(field.type);
    const args = "args" in field && field.args.length > 0 ? ` Arguments: ${argumentList(field.args)}.` : "";
    const text = `${field.description ?? ""}${args}`.trim();
    properties[field.name] = text ? (schema.$ref ? { allOf: [schema], description: text } : { ...schema, description: text }) : schema;
  }
  const required = fields.filter((field) => isNonNullType(field.type)).map((field) => field.name);
  const kind = isInputObjectType(type) ? "input" : isInterfaceType(type) ? "interface" : "object";
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), ...description, "x-graphql-kind": kind };
}
