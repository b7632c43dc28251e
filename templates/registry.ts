import type { AuthDefinition, ServerIdentity, UpstreamDefaults } from "oapi-mcp-gen-runtime";
import type { SourceFileStructure } from "ts-morph";
import type { ToolModel } from "../generator/tool-model.js";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { jsonLiteral } from "./literal.js";
import { CONST, Kind } from "./structure-kinds.js";
import { toolModuleNames } from "./tool-module.js";

/** Identity the generated server reports in `initialize`. */
export type RegistryIdentity = ServerIdentity;

/** The registry index: every tool, in allowlist order, and the server identity. */
/** Security schemes the tools use and the passthrough policy. */
export type RegistryAuth = AuthDefinition;

export function registryModule(
  tools: readonly ToolModel[],
  identity: RegistryIdentity,
  upstream: UpstreamDefaults,
  auth: RegistryAuth,
): SourceFileStructure {
  const modules = tools.map((tool) => toolModuleNames(tool));
  return {
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      {
        kind: Kind.ImportDeclaration,
        isTypeOnly: true,
        moduleSpecifier: RUNTIME_MODULE,
        namedImports: [{ name: "AuthDefinition" }, { name: "ServerIdentity" }, { name: "UpstreamDefaults" }],
      },
      ...modules.map((names) => ({
        kind: Kind.ImportDeclaration,
        moduleSpecifier: `./${names.file}.js`,
        namedImports: [{ name: names.constant }],
      })),
      ...modules.map((names) => ({
        kind: Kind.ExportDeclaration,
        isTypeOnly: true,
        moduleSpecifier: `./${names.file}.js`,
        namedExports: [{ name: names.args }, { name: names.result }],
      })),
      {
        kind: Kind.ExportDeclaration,
        namedExports: modules.map((names) => ({ name: names.constant })),
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: ["Name, version and instructions reported in `initialize`."],
        declarations: [{ name: "serverIdentity", type: "ServerIdentity", initializer: jsonLiteral(identity) }],
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: ["The upstream base URL used when API_BASE_URL is not set (from the document's servers or the config)."],
        declarations: [{ name: "upstream", type: "UpstreamDefaults", initializer: jsonLiteral(upstream) }],
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: ["Security schemes (credentials from the environment variables named in `env`) and what callers may pass through."],
        declarations: [{ name: "auth", type: "AuthDefinition", initializer: jsonLiteral(auth) }],
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: ["Every tool of this server, in the order `tools/list` returns them."],
        declarations: [{ name: "tools", initializer: `[${modules.map((names) => names.constant).join(", ")}] as const` }],
      },
    ],
  };
}
