import type { SourceFileStructure } from "ts-morph";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { Kind } from "./structure-kinds.js";

/** The server entry: reads the environment and serves the registry's tools at `/mcp`. */
export function serverEntryModule(): SourceFileStructure {
  return {
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      { kind: Kind.ImportDeclaration, moduleSpecifier: RUNTIME_MODULE, namedImports: [{ name: "runServer" }] },
      {
        kind: Kind.ImportDeclaration,
        moduleSpecifier: "./index.js",
        namedImports: [{ name: "auth" }, { name: "serverIdentity" }, { name: "tools" }, { name: "upstream" }],
      },
      "await runServer({ identity: serverIdentity, tools, upstream, auth });",
    ],
  };
}
