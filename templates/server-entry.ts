import type { SourceFileStructure } from "ts-morph";
import { GENERATED_HEADER, RUNTIME_MODULE, SHEBANG } from "./header.js";
import { settingsImport } from "./registry.js";
import { Kind } from "./structure-kinds.js";

/**
 * The server entry: reads the environment and serves the registry's tools at `/mcp` (in discovery mode through the
 * three discovery tools). The tool modules are imported once the server listens, so `/health` answers before a large
 * API's thousand modules have loaded. Its shebang makes the built `dist/server.js` the package's `bin` (`npx <package> --stdio`).
 */
export function serverEntryModule(discovery: boolean, code = false): SourceFileStructure {
  const settings = `identity: serverIdentity, tools, ${discovery ? "discovery, " : ""}upstream, auth${code ? ", code" : ""}`;
  return {
    kind: Kind.SourceFile,
    leadingTrivia: `${SHEBANG}${GENERATED_HEADER}`,
    statements: [
      { kind: Kind.ImportDeclaration, moduleSpecifier: RUNTIME_MODULE, namedImports: [{ name: "runServer" }] },
      settingsImport(code),
      'const tools = async () => (await import("./index.js")).tools;',
      ...(discovery
        ? ['const discovery = async () => (await import("./discovery.js")).discovery;', `await runServer({ ${settings} });`]
        : [`await runServer({ ${settings} });`]),
    ],
  };
}
