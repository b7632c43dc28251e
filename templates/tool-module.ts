import { type SourceFileStructure, StructureKind, VariableDeclarationKind } from "ts-morph";
import type { ToolModel } from "../generator/tool-model.js";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { camelIdentifier, commentText, jsonLiteral, pascalIdentifier, stringLiteral } from "./literal.js";

/** Exported names of one tool module. */
export function toolModuleNames(tool: ToolModel) {
  const pascal = pascalIdentifier(tool.name);
  return { constant: camelIdentifier(tool.name), args: `${pascal}Args`, result: `${pascal}Result`, file: `tools/${tool.name}` };
}

/** The module of one tool: its argument and result types (from openapi-typescript) and its definition. */
export function toolModule(tool: ToolModel, typesModule: string): SourceFileStructure {
  const names = toolModuleNames(tool);
  const route = `${tool.method.toUpperCase()} ${tool.path}`;
  return {
    kind: StructureKind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      {
        kind: StructureKind.ImportDeclaration,
        moduleSpecifier: RUNTIME_MODULE,
        namedImports: [{ name: "defineTool" }, ...runtimeTypeImports(tool).map((name) => ({ name, isTypeOnly: true }))],
      },
      { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: typesModule, namedImports: [{ name: "paths" }] },
      {
        kind: StructureKind.TypeAlias,
        name: "Operation",
        type: `paths[${stringLiteral(tool.path)}][${stringLiteral(tool.method)}]`,
      },
      {
        kind: StructureKind.TypeAlias,
        isExported: true,
        name: names.args,
        docs: [`Arguments of the \`${tool.name}\` tool.`],
        type: argsType(tool),
      },
      {
        kind: StructureKind.TypeAlias,
        isExported: true,
        name: names.result,
        docs: [`Structured result of the \`${tool.name}\` tool.`],
        type: resultType(tool),
      },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: [commentText(`\`${tool.name}\`: ${route}${tool.operationId ? ` (${tool.operationId})` : ""}.`)],
        declarations: [
          {
            name: names.constant,
            initializer: `defineTool<${names.args}, ${names.result}>(${jsonLiteral(toolDefinition(tool))})`,
          },
        ],
      },
    ],
  };
}

/** The runtime `ToolDefinition` value of a tool, as plain JSON. */
function toolDefinition(tool: ToolModel) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
    _meta: { ...(tool.operationId ? { operationId: tool.operationId } : {}), method: tool.method.toUpperCase(), path: tool.path },
    http: {
      method: tool.method.toUpperCase(),
      path: tool.path,
      parameters: tool.parameters,
      ...(tool.body ? { body: bodyBinding(tool.body) } : {}),
      response: tool.response.kind,
    },
    ...(tool.security ? { security: tool.security } : {}),
  };
}

/** The runtime's view of a body binding (the reshape is a generator concern). */
function bodyBinding(body: NonNullable<ToolModel["body"]>) {
  const { mediaType, kind, encoding, files } = body;
  return { mediaType, kind, ...(encoding ? { encoding } : {}), ...(files ? { files } : {}) };
}

/** Runtime types a module's argument and result types use. */
function runtimeTypeImports(tool: ToolModel): string[] {
  const body = tool.body;
  const names: string[] = [];
  if (body?.kind === "binary") names.push("FileArgument");
  if (body?.files) names.push("WithFiles");
  if (body?.reshape) names.push("ReshapeBody");
  return names;
}

/** The TypeScript type of the `body` argument. */
function bodyType(body: NonNullable<ToolModel["body"]>): string {
  if (body.kind === "binary") return "FileArgument";
  if (body.kind === "text") return "string";
  let type = `NonNullable<Operation["requestBody"]>["content"][${stringLiteral(body.mediaType)}]`;
  if (body.files) type = `WithFiles<${type}, ${union(body.files)}>`;
  if (body.reshape) type = `ReshapeBody<${type}, ${union(body.reshape.omitted)}, ${union(body.reshape.required)}>`;
  return type;
}

function argsType(tool: ToolModel): string {
  const members = tool.parameters.map((p) => {
    const optional = p.required ? "" : "?";
    return `${stringLiteral(p.argument)}${optional}: NonNullable<Operation["parameters"][${stringLiteral(p.in)}]>[${stringLiteral(p.name)}];`;
  });
  if (tool.body) members.push(`body${tool.body.required ? "" : "?"}: ${bodyType(tool.body)};`);
  return members.length === 0 ? "Record<string, never>" : `{ ${members.join(" ")} }`;
}

function resultType(tool: ToolModel): string {
  const { response } = tool;
  if (response.kind === "text") return "{ result: string; truncated?: boolean }";
  if (response.kind === "binary") return "{ contentType: string; size: number; sha256: string }";
  if (response.kind === "empty" || response.status === undefined || response.mediaType === undefined) return "{ ok?: boolean }";
  const payload = `Operation["responses"][${stringLiteral(response.status)}]["content"][${stringLiteral(response.mediaType)}]`;
  return response.wrapped ? `{ result: ${payload} }` : payload;
}

function union(names: readonly string[]): string {
  return names.length === 0 ? "never" : names.map(stringLiteral).join(" | ");
}
