import { type SourceFileStructure, StructureKind } from "ts-morph";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";

/** The server entry: reads the environment and serves the registry's tools at `/mcp`. */
export function serverEntryModule(): SourceFileStructure {
  return {
    kind: StructureKind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      { kind: StructureKind.ImportDeclaration, moduleSpecifier: RUNTIME_MODULE, namedImports: [{ name: "runServer" }] },
      {
        kind: StructureKind.ImportDeclaration,
        moduleSpecifier: "./index.js",
        namedImports: [{ name: "auth" }, { name: "serverIdentity" }, { name: "tools" }, { name: "upstream" }],
      },
      "await runServer({ identity: serverIdentity, tools, upstream, auth });",
    ],
  };
}
