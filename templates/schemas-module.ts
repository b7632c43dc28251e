import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { LiteralSlots, type ModuleSource } from "./literal-slots.js";
import { CONST, Kind } from "./structure-kinds.js";
import type { SharedSchemas } from "./tool-view.js";

/** The shared `$defs` schemas: each one written once, referenced by every tool that contains it. */
export function schemasModule(shared: SharedSchemas): ModuleSource {
  const slots = new LiteralSlots();
  return slots.module({
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      { kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: RUNTIME_MODULE, namedImports: [{ name: "JsonSchema" }] },
      ...shared.constants.map(([name, schema]) => ({
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        declarations: [{ name, type: "JsonSchema", initializer: slots.value(schema) }],
      })),
    ],
  });
}
