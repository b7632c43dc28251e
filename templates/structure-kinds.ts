import type { StructureKind, VariableDeclarationKind } from "ts-morph";

/**
 * The ts-morph enum values the templates use, without loading ts-morph (and TypeScript) at run time: building
 * structures then costs nothing when every module comes from the render cache. A test pins them to ts-morph's enums.
 */
export const Kind = {
  SourceFile: 36 as StructureKind.SourceFile,
  ImportDeclaration: 16 as StructureKind.ImportDeclaration,
  ExportDeclaration: 11 as StructureKind.ExportDeclaration,
  TypeAlias: 38 as StructureKind.TypeAlias,
  VariableStatement: 41 as StructureKind.VariableStatement,
} as const;

/** `const` declarations. */
export const CONST = "const" as VariableDeclarationKind.Const;
