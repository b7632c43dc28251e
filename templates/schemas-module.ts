import type { SourceFileStructure } from "ts-morph";
import type { SharedSchemas } from "../generator/shared-schemas.js";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { jsonLiteral } from "./literal.js";
import { CONST, Kind } from "./structure-kinds.js";

/** The shared `$defs` schemas: each one written once, referenced by every tool that contains it. */
export function schemasModule(shared: SharedSchemas): SourceFileStructure {
  return {
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      { kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: RUNTIME_MODULE, namedImports: [{ name: "JsonSchema" }] },
      ...shared.constants.map(([name, schema]) => ({
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        declarations: [{ name, type: "JsonSchema", initializer: jsonLiteral(schema) }],
      })),
    ],
  };
}
