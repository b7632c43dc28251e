import type { StructureKind, VariableDeclarationKind } from "ts-morph";

/**
 * The ts-morph enum values the templates use, without loading ts-morph (and TypeScript) at run time: building
 * structures then costs nothing when every module comes from the render cache. The compiler checks each number against
 * ts-morph's declaration, and a test against its enum.
 */
const SOURCE_FILE: StructureKind.SourceFile = 36;
const IMPORT_DECLARATION: StructureKind.ImportDeclaration = 16;
const EXPORT_DECLARATION: StructureKind.ExportDeclaration = 11;
const TYPE_ALIAS: StructureKind.TypeAlias = 38;
const VARIABLE_STATEMENT: StructureKind.VariableStatement = 41;

/** The structure kinds by name, as ts-morph's `StructureKind` names them. */
export const Kind = {
  SourceFile: SOURCE_FILE,
  ImportDeclaration: IMPORT_DECLARATION,
  ExportDeclaration: EXPORT_DECLARATION,
  TypeAlias: TYPE_ALIAS,
  VariableStatement: VARIABLE_STATEMENT,
} as const;

/** `const` declarations. */
export const CONST = "const" as VariableDeclarationKind.Const;
