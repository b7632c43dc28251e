import type { SourceFileStructure } from "ts-morph";
import { GENERATED_HEADER, RUNTIME_MODULE } from "./header.js";
import { commentText, propertyKey } from "./literal.js";
import { CodeSlots, type ModuleSource } from "./literal-slots.js";
import { settingsImport } from "./registry.js";
import { CONST, Kind } from "./structure-kinds.js";
import { toolModuleNames } from "./tool-module.js";
import type { ToolView } from "./tool-view.js";

/** `createClient`'s parameters and the lines of its body before its methods (statement-layout.ts lays them out). */
export const CLIENT_SIGNATURE = "(options: ClientOptions = {}): ApiClient => {";
export const CLIENT_OPEN = ["const call = toolCaller({ identity: serverIdentity, tools, upstream, auth }, options);", "return {"];

/**
 * `client.ts`: `createClient(options)` gives a typed method per tool (`client.memo_get_memo({ memo })`), running the
 * runtime's own execution path for it.
 */
export function clientModule(tools: readonly ToolView[]): ModuleSource {
  const slots = new CodeSlots();
  const modules = tools.map((tool) => ({ tool, names: toolModuleNames(tool) }));
  const docOf = (tool: ToolView) =>
    commentText(`${tool.method.toUpperCase()} ${tool.path}${tool.operationId ? ` (${tool.operationId})` : ""}: ${tool.title}`);
  const methods = modules.map(
    ({ tool, names }) => `/** ${docOf(tool)} */\n${propertyKey(tool.name)}: (args: ${names.args}) => call(${names.constant}, args),`,
  );
  const structure: SourceFileStructure = {
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      {
        kind: Kind.ImportDeclaration,
        moduleSpecifier: RUNTIME_MODULE,
        namedImports: [{ name: "ClientOptions", isTypeOnly: true }, { name: "toolCaller" }],
      },
      {
        kind: Kind.ImportDeclaration,
        moduleSpecifier: "./index.js",
        namedImports: [
          ...modules.flatMap(({ names }) => [
            { name: names.args, isTypeOnly: true },
            { name: names.result, isTypeOnly: true },
            { name: names.constant },
          ]),
          { name: "tools" },
        ],
      },
      settingsImport(),
      {
        // Named, not inferred: a large API's inferred client type is too long for the compiler to write (TS7056).
        kind: Kind.TypeAlias,
        isExported: true,
        name: "ApiClient",
        docs: ["The typed client's methods: one per tool, resolving to the tool's structured result."],
        type: slots.code(
          [
            "{",
            ...modules.map(
              ({ tool, names }) => `/** ${docOf(tool)} */\n${propertyKey(tool.name)}(args: ${names.args}): Promise<${names.result}>;`,
            ),
            "}",
          ].join("\n"),
        ),
      },
      {
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        docs: [
          "A typed client of the API: a method per tool, with the tool's validation, request building, credentials and " +
            "result checking; a failed call rejects with a ToolCallError.",
        ],
        declarations: [
          {
            name: "createClient",
            initializer: slots.code([CLIENT_SIGNATURE, ...CLIENT_OPEN, ...methods, "};", "}"].join("\n")),
          },
        ],
      },
    ],
  };
  return { structure, literals: [], code: slots.texts };
}
