import type { AuthDefinition, CodeSettings, ServerIdentity, UpstreamDefaults } from "oapi-mcp-gen-runtime";
import type { ImportDeclarationStructure, SourceFileStructure } from "ts-morph";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { LiteralSlots, type ModuleSource } from "./literal-slots.js";
import { CONST, Kind } from "./structure-kinds.js";
import { toolModuleNames } from "./tool-module.js";
import type { ToolView } from "./tool-view.js";

/** Identity the generated server reports in `initialize`. */
export type RegistryIdentity = ServerIdentity;

/** `import { auth, serverIdentity, upstream } from "./server-settings.js"`: what the entry and the client need (and `code`). */
export function settingsImport(code = false): ImportDeclarationStructure {
  return {
    kind: Kind.ImportDeclaration,
    moduleSpecifier: `./${SERVER_SETTINGS}.js`,
    namedImports: [{ name: "auth" }, ...(code ? [{ name: "code" }] : []), { name: "serverIdentity" }, { name: "upstream" }],
  };
}

/** Security schemes the tools use and the passthrough policy. */
export type RegistryAuth = AuthDefinition;

/** The module (beside `index.ts`) with the server's identity, upstream defaults and auth. */
export const SERVER_SETTINGS = "server-settings";

/** The server's settings, apart from its tools: what `server.ts` needs before the tool modules load. */
export function serverSettingsModule(
  identity: RegistryIdentity,
  upstream: UpstreamDefaults,
  auth: RegistryAuth,
  code?: CodeSettings,
): ModuleSource {
  const slots = new LiteralSlots();
  return slots.module({
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      {
        kind: Kind.ImportDeclaration,
        isTypeOnly: true,
        moduleSpecifier: RUNTIME_MODULE,
        namedImports: [
          { name: "AuthDefinition" },
          ...(code ? [{ name: "CodeSettings" }] : []),
          { name: "ServerIdentity" },
          { name: "UpstreamDefaults" },
        ],
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: ["Name, version and instructions reported in `initialize`."],
        declarations: [{ name: "serverIdentity", type: "ServerIdentity", initializer: slots.value(identity) }],
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: ["The upstream base URL used when API_BASE_URL is not set (from the document's servers or the config)."],
        declarations: [{ name: "upstream", type: "UpstreamDefaults", initializer: slots.value(upstream) }],
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: ["Security schemes (credentials from the environment variables named in `env`) and what callers may pass through."],
        declarations: [{ name: "auth", type: "AuthDefinition", initializer: slots.value(auth) }],
      },
      ...(code
        ? [
            {
              kind: Kind.VariableStatement,
              isExported: true,
              declarationKind: CONST,
              docs: ["Code mode: run_code's budgets and the operations its programs may change data through."],
              declarations: [{ name: "code", type: "CodeSettings", initializer: slots.value(code) }],
            },
          ]
        : []),
    ],
  });
}

/** The registry index: every tool, in allowlist order, with the server's settings. */
export function registryModule(tools: readonly ToolView[]): SourceFileStructure {
  const modules = tools.map((tool) => toolModuleNames(tool));
  return {
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      { kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: RUNTIME_MODULE, namedImports: ["ToolDefinition"] },
      ...modules.map((names) => ({
        kind: Kind.ImportDeclaration,
        moduleSpecifier: `./${names.file}.js`,
        namedImports: [{ name: names.constant }],
      })),
      {
        kind: Kind.ExportDeclaration,
        moduleSpecifier: `./${SERVER_SETTINGS}.js`,
        namedExports: [{ name: "auth" }, { name: "serverIdentity" }, { name: "upstream" }],
      },
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
        docs: ["Every tool of this server, in the order `tools/list` returns them."],
        // Typed, not inferred: a large API's tuple type is too long for the compiler to write (TS7056).
        declarations: [
          { name: "tools", type: "readonly ToolDefinition[]", initializer: `[${modules.map((names) => names.constant).join(", ")}]` },
        ],
      },
    ],
  };
}
