import type { DiscoveryData } from "oapi-mcp-gen-runtime";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { LiteralSlots, type ModuleSource } from "./literal-slots.js";
import { CONST, Kind } from "./structure-kinds.js";

/** The module a discovery-mode server loads with its tools (server-entry.ts imports it by this name). */
export const DISCOVERY_MODULE = "discovery";

/** `discovery.ts`: the operations listed directly, each tool's tags and the search index, as data. */
export function discoveryModule(data: DiscoveryData): ModuleSource {
  const slots = new LiteralSlots();
  return slots.module({
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      { kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: RUNTIME_MODULE, namedImports: [{ name: "DiscoveryData" }] },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: ["Discovery mode: what tools/list shows besides the three discovery tools, and the search index over every tool."],
        declarations: [{ name: "discovery", type: "DiscoveryData", initializer: slots.value(data) }],
      },
    ],
  });
}
