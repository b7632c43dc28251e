import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfigFor, generateFromFile } from "../../../generator/generate.js";
import {
  formatTypeScript,
  formatTypesByMembers,
  laidOutLine,
  renderCounts,
  renderModules,
  renderModuleWhole,
  stableStatement,
  statementsOf,
} from "../../../generator/layout/index.js";
import { operationTypes } from "../../../generator/types/index.js";
import { normalizeDocument, readDocumentSource } from "../../../openapi/document/index.js";
import { bundleExternalRefs } from "../../../openapi/references/index.js";
import { GENERATED_HEADER } from "../../../templates/header.js";
import { Identifier } from "../../../templates/literal.js";
import { LiteralSlots } from "../../../templates/literal-slots.js";
import { CONST, Kind } from "../../../templates/structure-kinds.js";
import { seededRandom } from "../../helpers/seeded-random.js";

const ROOT = join(import.meta.dirname, "../../..");

/** The documents the layouts are checked on: every operation of each. */
const DOCUMENTS = [
  "examples/memos/openapi.yaml",
  "test/fixtures/docker-engine/swagger.yaml",
  "test/fixtures/redocly-museum/openapi.yaml",
  "test/fixtures/scalar-galaxy/openapi.yaml",
  "test/fixtures/kitchen-sink/openapi.yaml",
  "test/fixtures/cms/openapi.yaml",
];

const KEYS = [
  "a",
  "id",
  "url",
  "type",
  "items",
  "description",
  "additionalProperties",
  "a-b",
  "x y",
  "it's",
  'say "hi"',
  "200",
  "__proto__",
  "$ref",
  "_",
  "nested_property_with_a_long_name",
];
const STRINGS = [
  "",
  "x",
  "plain words",
  'He said "hi"',
  "it's",
  `both ' and " and ""`,
  "line\nbreak\ttab",
  "\u2028 separators \u2029",
  "漢字の説明文",
  "emoji 👍🏽 and more",
  "e\u0301 combining",
  "back\\slash",
  "a".repeat(60),
  "The number of results per page (max 100). For more information, see the documentation pages.",
  "b".repeat(97),
  "c".repeat(140),
];
const NUMBERS = [0, 1, -1, 42, 3.5, -0.25, 1e21, 1.5e-7, -0, 123456789, 98];

/** A random JSON value of the kinds the templates write (with an occasional constant name). */
function value(next: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const roll = next();
  if (depth > 4 || roll < 0.3) {
    const scalar = next();
    if (scalar < 0.45) return pick(STRINGS);
    if (scalar < 0.7) return pick(NUMBERS);
    if (scalar < 0.8) return next() < 0.5;
    if (scalar < 0.9) return null;
    return new Identifier(pick(["simpleUserSchema", "aVeryLongSharedSchemaConstantNameThatTakesRoomSchema"]));
  }
  if (roll < 0.5) {
    const kind = next();
    const length = Math.floor(next() * 6);
    if (kind < 0.3) return Array.from({ length: Math.floor(next() * 40) }, () => pick(NUMBERS));
    if (kind < 0.55) return Array.from({ length }, () => ({ a: value(next, depth + 1), type: pick(STRINGS) }));
    if (kind < 0.65) return Array.from({ length }, () => [value(next, depth + 1), value(next, depth + 1)]);
    return Array.from({ length }, () => value(next, depth + 1));
  }
  const entries = Math.floor(next() * 7);
  const object: Record<string, unknown> = {};
  for (let index = 0; index < entries; index++)
    Object.defineProperty(object, pick(KEYS), { value: value(next, depth + 1), enumerable: true, configurable: true, writable: true });
  return object;
}

/** A module declaring values the way the templates do: a shared schema constant and a tool definition. */
function moduleOf(values: readonly unknown[]) {
  const slots = new LiteralSlots();
  return slots.module({
    kind: Kind.SourceFile,
    leadingTrivia: GENERATED_HEADER,
    statements: [
      { kind: Kind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: "oapi-mcp-gen-runtime", namedImports: [{ name: "JsonSchema" }] },
      ...values.map((item, index) => ({
        kind: Kind.VariableStatement,
        isExported: true,
        declarationKind: CONST,
        declarations:
          index % 2 === 0
            ? [{ name: `value${index}Schema`, type: "JsonSchema", initializer: slots.value(item) }]
            : [{ name: `toolNumber${index}WithALongerName`, initializer: `defineTool<ToolArgs, ToolResult>(${slots.value(item)})` }],
      })),
    ],
  });
}

describe("literal layout", () => {
  it("lays out random JSON values exactly as prettier formats them", async () => {
    const next = seededRandom(20261202);
    const sources = Array.from({ length: 120 }, () =>
      moduleOf(Array.from({ length: 4 }, () => ({ description: value(next, 0), properties: value(next, 1), extra: value(next, 2) }))),
    );
    expect(sources.reduce((slots, source) => slots + source.literals.length, 0)).toBeGreaterThan(300);
    const before = { ...renderCounts };
    const fast = await renderModules(sources);
    const whole = await Promise.all(sources.map(renderModuleWhole));
    for (const [index, text] of fast.entries()) expect(text).toBe(whole[index]);
    // The layout, not prettier, filled (nearly) every module's slots.
    expect(renderCounts.slots - before.slots).toBeGreaterThan(300);
    expect(renderCounts.wholeModules - before.wholeModules).toBe(0);
  });

  it("sends a module to prettier whole where prettier would move a value under its key", async () => {
    const key = "k".repeat(120);
    const source = moduleOf([{ [key]: { a: "b".repeat(100) }, description: "d".repeat(90) }]);
    expect(source.literals).toHaveLength(1);
    const before = { ...renderCounts };
    const [text] = await renderModules([source]);
    expect(renderCounts.wholeModules - before.wholeModules).toBe(1);
    expect(text).toBe(await renderModuleWhole(source));
    expect(text).toContain(`${key}:\n    {`);
  });
});

describe("layouts against prettier on real documents", () => {
  for (const path of DOCUMENTS) {
    it(`generates ${path} as prettier alone formats it`, async () => {
      const spec = join(ROOT, path);
      const before = { ...renderCounts };
      const fast = await generateFromFile(spec, defaultConfigFor);
      // The layouts did the work: no module went to prettier whole, and few statements did.
      expect(renderCounts.wholeModules).toBe(before.wholeModules);
      expect(renderCounts.byPrettier - before.byPrettier).toBeLessThan(20);
      expect(renderCounts.statements - before.statements).toBeGreaterThan(70);
      const prettier = await generateFromFile(spec, defaultConfigFor, { prettierOnly: true });
      expect([...fast.files.keys()]).toEqual([...prettier.files.keys()]);
      for (const [file, text] of fast.files) expect(text, file).toBe(prettier.files.get(file));
    }, 60_000);

    it(`lays out ${path}'s types without sending them whole to prettier`, async () => {
      const spec = join(ROOT, path);
      const { document: read } = await readDocumentSource(spec);
      const { document } = await normalizeDocument(await bundleExternalRefs(read, spec, { outsideFolder: false }), spec);
      const printed = `${GENERATED_HEADER}${await operationTypes(document)}`;
      const laidOut = await formatTypesByMembers(printed);
      expect(laidOut).toBeDefined();
      expect(laidOut).toBe(await formatTypeScript(printed));
    }, 60_000);
  }
});

describe("statement layouts", () => {
  const names = (count: number, stem: string) => Array.from({ length: count }, (_, index) => `${stem}${index}`);
  const method = (key: string, type: string, constant: string) => [
    `/** GET /${key} (${key}): ${key} */`,
    `${key}: (args: ${type}) => call(${constant}, args),`,
  ];
  /** A statement of a head line, body lines two columns in, and a closing line. */
  const block = (head: string, body: readonly string[], close = "};") => [head, ...body.map((line) => `  ${line}`), close].join("\n");
  const statements = [
    `import { ${names(3, "a").join(", ")} } from "./short.js";`,
    `import { ${names(12, "someLongerBindingName").join(", ")} } from "./long.js";`,
    `import { ${"x".repeat(90)} } from "./single-binding-too-long.js";`,
    `export { ${names(15, "exportedName").join(", ")} };`,
    `export type { ${names(2, "Args").join(", ")} } from "./tools/x.js";`,
    `export const tools = [${names(3, "t").join(", ")}];`,
    `export const tools = [${names(20, "aToolConstant").join(", ")}];`,
    `export const tools = [${names(3, "t").join(", ")}] as const;`,
    `export const tools = [${names(20, "aToolConstant").join(", ")}] as const;`,
    `export const tools: readonly ToolDefinition[] = [${names(20, "aToolConstant").join(", ")}];`,
    'export type SomeRatherLongOperationNameForTheResultOfATool = Operation["responses"]["200"]["content"]["application/json"];',
    `export const shortName = defineTool<ShortArgs, ShortResult>({ __oapiMcpGenSlot0__: "${"x".repeat(100)}" });`,
    `export const aVeryLongToolConstantNameIndeed = defineTool<AVeryLongToolConstantNameIndeedArgs, AVeryLongToolConstantNameIndeedResult>({ __oapiMcpGenSlot0__: "${"x".repeat(100)}" });`,
    block("export const createClient = (options: ClientOptions = {}): ApiClient => {", [
      "const call = toolCaller({ identity: serverIdentity, tools, upstream, auth }, options);",
      "return {",
      ...method("short", "ShortArgs", "short"),
      ...method("a_tool_name_of_medium_length_for_the_arrow", "AToolNameOfMediumLengthForTheArrowArgs", "aToolNameOfMediumLength"),
      ...method("a_tool_name_so_long_that_even_its_signature_does_not_fit", "AToolNameSoLongThatEvenItsSignatureDoesNotFitArgs", "x"),
      ...method('"quoted-name"', "QuotedNameArgs", "quotedName"),
      // A summary cut short, and one in another script: prettier keeps comments as they are.
      `/** GET /x (x): ${"a".repeat(120)}… */`,
      "/** GET /y (y): 取得する ✓ */",
      "short_two: (args: ShortArgs) => call(shortTwo, args),",
      "};",
    ]),
    block("export type ApiClient = {", [
      "/** GET /short (short): short */",
      "short(args: ShortArgs): Promise<ShortResult>;",
      `/** GET /x (x): ${"a".repeat(120)}… */`,
      "a_tool_name_too_long_for_one_line(args: AToolNameTooLongForOneLineArgs): Promise<AToolNameTooLongForOneLineResult>;",
      "/** GET /y (y): 取得する ✓ */",
      "plain_member: string;",
    ]),
  ];
  for (const text of statements) {
    it(`lays out ${text.slice(0, 50)}… as prettier does`, async () => {
      const [lines, ...others] = statementsOf(`${text}\n`);
      expect(others).toEqual([]);
      const laidOut = stableStatement(lines ?? []);
      expect(laidOut).toBeDefined();
      expect(laidOut).toBe((await formatTypeScript(text)).replace(/\n$/, ""));
    });
  }
});

describe("statement layouts left to prettier", () => {
  it("leaves a client whose method line holds other than ASCII to prettier", () => {
    const lines = [
      "export const createClient = (options: ClientOptions = {}): ApiClient => {",
      "  const call = toolCaller({ identity: serverIdentity, tools, upstream, auth }, options);",
      "  return {",
      '    "naïve": (args: NaiveArgs) => call(naive, args),',
      "  };",
      "};",
    ];
    expect(stableStatement(lines)).toBeUndefined();
  });

  it("leaves a type literal with a quoted method, or a member other than ASCII, to prettier", () => {
    const literal = (member: string) => ["export type ApiClient = {", `  ${member}`, "};"];
    expect(stableStatement(literal('"quoted-name"(args: QuotedNameArgs): Promise<QuotedNameResult>;'))).toBeUndefined();
    expect(stableStatement(literal('naïve: "é";'))).toBeUndefined();
  });
});

describe("layouts in discovery mode", () => {
  it("generates Memos' discovery server as prettier alone formats it", async () => {
    const spec = join(ROOT, "examples/memos/openapi.yaml");
    const config = (model: Parameters<typeof defaultConfigFor>[0]) => ({ ...defaultConfigFor(model), mode: "discovery" as const });
    const fast = await generateFromFile(spec, config);
    const prettier = await generateFromFile(spec, config, { prettierOnly: true });
    expect(fast.files.has("discovery.ts")).toBe(true);
    for (const [file, text] of fast.files) expect(text, file).toBe(prettier.files.get(file));
  }, 60_000);
});

describe("types layout", () => {
  it("formats members prettier breaks, and falls back where a line is of another shape", async () => {
    const printed = [
      GENERATED_HEADER.trimEnd(),
      "export type paths = {",
      '    "/a": {',
      "        /** @description One line. */",
      '        state?: "open" | "closed" | "all" | "merged" | "draft" | "pending" | "approved" | "rejected" | "queued";',
      "        items: {",
      "            /**",
      "             * @description Several",
      "             *     lines   ",
      "             */",
      "            id: number;",
      "        }[] | null;",
      '        "quoted-key": components["schemas"]["a"] & components["schemas"]["b"];',
      "    };",
      "};",
      "",
    ].join("\n");
    expect(await formatTypesByMembers(printed)).toBe(await formatTypeScript(printed));
    expect(await formatTypesByMembers("export type odd = {\n   three: string;\n};\n")).toBeUndefined();
  });

  const long = (stem: string, count: number) => Array.from({ length: count }, (_, index) => `"${stem}_${index}"`).join(" | ");
  const members: [string, string[]][] = [
    ["a union too wide, which fits under its key", [`dismissed_reason: ${long("reason", 6)} | null;`]],
    ["a union too wide even under its key", [`"security-advisory-ecosystems"?: ${long("ecosystem", 12)};`]],
    [
      "a union of indexed types and arrays",
      ['owner: components["schemas"]["simple-user"] | components["schemas"]["enterprise"][] | components["schemas"]["team"];'],
    ],
    [
      "a type too wide with nothing to break",
      [`can_approve_pull_request_reviews: components["schemas"]["actions-can-approve-pull-request-reviews-${"x".repeat(30)}"];`],
    ],
    [
      "a key too wide before an object",
      [`"/repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies/{branch_policy_id}": {`, "    id: number;", "};"],
    ],
    ["an object or null", ["pusher?: {", "    name: string;", "} | null;"]],
  ];
  it("leaves to prettier the lines it does not model", () => {
    expect(laidOutLine("}[] | null;", 2)).toBeUndefined();
    expect(laidOutLine(`x: ${long("alternative", 8)} | Record<string, never>;`, 2)).toBeUndefined();
    expect(laidOutLine(`x: ${long("alternative", 8)} | "b | c";`, 2)).toBeUndefined();
    expect(laidOutLine(`"quoted": ${long("alternative", 8)};`, 2)).toBeUndefined();
    expect(laidOutLine(`export type X = ${long("alternative", 8)};`, 0)).toBeUndefined();
  });

  for (const [what, lines] of members) {
    for (const depth of [1, 3]) {
      it(`lays out ${what} at depth ${depth} as prettier does`, async () => {
        const indent = (level: number) => "    ".repeat(level);
        const printed = [
          "export interface paths {",
          ...Array.from({ length: depth - 1 }, (_, level) => `${indent(level + 1)}m${level}: {`),
          ...lines.map((line) => `${indent(depth)}${line}`),
          ...Array.from({ length: depth - 1 }, (_, level) => `${indent(depth - level - 1)}};`),
          "}",
          "",
        ].join("\n");
        // Every line is laid out here, none left to prettier.
        for (const line of lines) expect(laidOutLine(line.trim(), depth + (line.startsWith("    ") ? 1 : 0))).toBeDefined();
        expect(await formatTypesByMembers(printed)).toBe(await formatTypeScript(printed));
      });
    }
  }
});

describe("openapi-typescript's module laid out by members, at scale", () => {
  /** The printed types of a document whose one response is a union of `count` inline objects. */
  async function unionTypes(count: number): Promise<string> {
    const anyOf = Array.from({ length: count }, (_, index) => ({ type: "object", properties: { [`k${index}`]: { type: "integer" } } }));
    const content = { "application/json": { schema: { type: "object", properties: { v: { anyOf } } } } };
    const document = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: { "/a": { get: { operationId: "getA", responses: { "200": { description: "ok", content } } } } },
    };
    return `${GENERATED_HEADER}${await operationTypes(document)}`;
  }

  it("lays out a union of objects as prettier does", async () => {
    const printed = await unionTypes(40);
    expect(await formatTypesByMembers(printed)).toBe(await formatTypeScript(printed));
  });

  it("finds the members of a union of 8,000 objects in one pass, not one per line (that took 20 s)", { timeout: 15_000 }, async () => {
    const laidOut = await formatTypesByMembers(await unionTypes(8000));
    expect(laidOut).toContain("\n                  k7999?: number;\n");
    expect(laidOut?.match(/^ {14}\| \{$/gm)).toHaveLength(8000);
  });
});
