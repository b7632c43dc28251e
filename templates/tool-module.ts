import { type JsonSchema, jsonText, setOwn, type ToolDefinition } from "oapi-mcp-gen-runtime";
import { util } from "prettier";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { camelIdentifier, commentText, Identifier, isPlainName, pascalIdentifier, stringLiteral } from "./literal.js";
import { LiteralSlots, type ModuleSource, PRINT_WIDTH } from "./literal-slots.js";
import { CONST, Kind } from "./structure-kinds.js";
import type { HttpMethod, SharedSchemas, ToolView } from "./tool-view.js";

/** Exported names of one tool module. */
export function toolModuleNames(tool: ToolView) {
  const pascal = pascalIdentifier(tool.name);
  return { constant: camelIdentifier(tool.name), args: `${pascal}Args`, result: `${pascal}Result`, file: `tools/${tool.name}` };
}

/** The module of one tool: its argument and result types (from openapi-typescript) and its definition. */
export function toolModule(tool: ToolView, plain: ToolDefinition, typesModule: string, shared?: SharedSchemas): ModuleSource {
  const names = toolModuleNames(tool);
  const args = argsType(tool, names.args);
  const result = resultType(tool, names.result);
  // Only modules whose types mention the operation declare it (so `noUnusedLocals` projects compile them too).
  const usesOperation = args.usesOperation || result.usesOperation;
  const used = new Set<string>();
  const definition: ToolDefinition = shared
    ? {
        ...plain,
        inputSchema: withSharedDefs(plain.inputSchema, shared, used),
        ...(plain.outputSchema ? { outputSchema: withSharedDefs(plain.outputSchema, shared, used) } : {}),
      }
    : plain;
  const route = `${tool.method.toUpperCase()} ${tool.path}`;
  const slots = new LiteralSlots();
  return slots.module({
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      {
        kind: Kind.ImportDeclaration,
        moduleSpecifier: RUNTIME_MODULE,
        namedImports: [{ name: "defineTool" }, ...runtimeTypeImports(tool).map((name) => ({ name, isTypeOnly: true }))],
      },
      ...(usesOperation
        ? [{ kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: typesModule, namedImports: [{ name: "paths" }] }]
        : []),
      ...(used.size > 0
        ? [{ kind: Kind.ImportDeclaration, moduleSpecifier: "../schemas.js", namedImports: [...used].sort().map((name) => ({ name })) }]
        : []),
      ...(usesOperation
        ? [{ kind: Kind.TypeAlias, name: "Operation", type: `paths[${stringLiteral(tool.path)}][${stringLiteral(tool.method)}]` }]
        : []),
      {
        kind: Kind.TypeAlias,
        isExported: true,
        name: names.args,
        docs: [`Arguments of the \`${tool.name}\` tool.`],
        type: args.text,
      },
      {
        kind: Kind.TypeAlias,
        isExported: true,
        name: names.result,
        docs: [`Structured result of the \`${tool.name}\` tool.`],
        type: result.text,
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: [commentText(`\`${tool.name}\`: ${route}${tool.operationId ? ` (${tool.operationId})` : ""}.`)],
        declarations: [
          {
            name: names.constant,
            initializer: `defineTool<${names.args}, ${names.result}>(${slots.value(definition)})`,
          },
        ],
      },
    ],
  });
}

/** The request line's method name of each OpenAPI method key. */
const HTTP_METHOD_NAMES: Record<HttpMethod, ToolDefinition["http"]["method"]> = {
  get: "GET",
  put: "PUT",
  post: "POST",
  delete: "DELETE",
  options: "OPTIONS",
  head: "HEAD",
  patch: "PATCH",
  trace: "TRACE",
};

/** The runtime `ToolDefinition` value of a tool, as plain JSON (what the generated module declares). */
export function toolDefinition(tool: ToolView): ToolDefinition {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    ...(tool.publishOutputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.outputValidation !== "warn" ? { outputValidation: tool.outputValidation } : {}),
    annotations: tool.annotations,
    _meta: {
      ...(tool.operationId ? { operationId: tool.operationId } : {}),
      method: tool.method.toUpperCase(),
      path: tool.path,
      ...(tool.deprecated ? { deprecated: true } : {}),
    },
    http: {
      method: HTTP_METHOD_NAMES[tool.method],
      path: tool.path,
      parameters: tool.parameters,
      ...(tool.body ? { body: bodyBinding(tool.body) } : {}),
      response: tool.response.kind,
      ...(tool.response.kind === "json" && tool.response.wrapped ? { wrapResult: true } : {}),
    },
    ...(tool.security ? { security: tool.security } : {}),
    ...(tool.scopes ? { scopes: tool.scopes } : {}),
    ...(tool.confirm ? { confirm: true } : {}),
  };
}

/** A copy of a schema whose shared `$defs` entries are references to their constants (recorded in `used`). */
function withSharedDefs(schema: JsonSchema, shared: SharedSchemas, used: Set<string>): JsonSchema {
  const defs = schema.$defs;
  if (!defs || typeof defs !== "object" || Array.isArray(defs)) return schema;
  const replaced: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(defs)) {
    const name = shared.nameByContent.get(jsonText(def));
    if (name) used.add(name);
    setOwn(replaced, key, name ? new Identifier(name) : def);
  }
  return { ...schema, $defs: replaced };
}

/** The runtime's view of a body binding (the reshape is a generator concern). */
function bodyBinding(body: NonNullable<ToolView["body"]>) {
  const { mediaType, kind, encoding, files, readOnly, sources, closed } = body;
  return {
    mediaType,
    kind,
    ...(encoding ? { encoding } : {}),
    ...(files ? { files } : {}),
    ...(readOnly ? { readOnly } : {}),
    ...(sources ? { sources } : {}),
    ...(closed ? { closed } : {}),
  };
}

/** Runtime types a module's argument and result types use. */
function runtimeTypeImports(tool: ToolView): string[] {
  const body = tool.body;
  const names: string[] = [];
  if (body?.kind === "binary") names.push("FileArgument");
  if (body?.files) names.push("WithFiles");
  if (body?.reshape) names.push("ReshapeBody");
  return names;
}

/** The TypeScript type of the `body` argument. */
function bodyType(body: NonNullable<ToolView["body"]>): string {
  if (body.kind === "binary") return "FileArgument";
  if (body.kind === "text") return "string";
  if (body.undeclared) return "Record<string, unknown>";
  let type = `NonNullable<Operation["requestBody"]>["content"][${stringLiteral(body.mediaType)}]`;
  if (body.files) type = `WithFiles<${type}, ${union(body.files)}>`;
  if (body.reshape) type = `ReshapeBody<${type}, ${union(body.reshape.omitted)}, ${union(body.reshape.required)}>`;
  return type;
}

/** A TypeScript type for a module, and whether it refers to the operation's generated types. */
interface TypeText {
  text: string;
  usesOperation: boolean;
}

/** A type member's key as prettier prints it: bare when it is a name, else a string literal. */
function memberKey(key: string): string {
  return isPlainName(key) ? key : stringLiteral(key);
}

/**
 * The type literal of `export type name = …;` as prettier lays it out: on one line when the statement fits, else a
 * member a line.
 */
function typeLiteral(name: string, members: readonly string[]): string {
  const flat = `{ ${members.join("; ")} }`;
  if (util.getStringWidth(`export type ${name} = ${flat};`) <= PRINT_WIDTH) return flat;
  return `{\n${members.map((member) => `  ${member};`).join("\n")}\n}`;
}

function argsType(tool: ToolView, name: string): TypeText {
  const undeclared = new Set(tool.undeclaredParameters);
  const given = tool.parameters.filter((p) => p.source === undefined);
  const members = given.map((p) => {
    const optional = p.required ? "" : "?";
    const type = undeclared.has(p.argument)
      ? "string"
      : `NonNullable<Operation["parameters"][${stringLiteral(p.in)}]>[${stringLiteral(p.name)}]`;
    return `${memberKey(p.argument)}${optional}: ${type}`;
  });
  const body = tool.body;
  if (body) members.push(`body${body.required ? "" : "?"}: ${bodyType(body)}`);
  const bodyUsesOperation = body !== undefined && body.kind !== "binary" && body.kind !== "text" && !body.undeclared;
  return {
    text: members.length === 0 ? "Record<string, never>" : typeLiteral(name, members),
    usesOperation: given.some((p) => !undeclared.has(p.argument)) || bodyUsesOperation,
  };
}

function resultType(tool: ToolView, name: string): TypeText {
  const { response } = tool;
  if (response.kind === "text") return { text: typeLiteral(name, ["result: string", "truncated?: boolean"]), usesOperation: false };
  if (response.kind === "binary")
    return { text: typeLiteral(name, ["contentType: string", "size: number", "sha256: string"]), usesOperation: false };
  if (response.kind === "empty" || response.status === undefined || response.mediaType === undefined)
    return { text: typeLiteral(name, ["ok?: boolean"]), usesOperation: false };
  const payload = `Operation["responses"][${stringLiteral(response.status)}]["content"][${stringLiteral(response.mediaType)}]`;
  return { text: response.wrapped ? typeLiteral(name, [`result: ${payload}`]) : payload, usesOperation: true };
}

function union(names: readonly string[]): string {
  return names.length === 0 ? "never" : names.map(stringLiteral).join(" | ");
}
