import { readdir, readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/cli.js";

interface Import {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

/** Every import specifier of every .ts file under a folder (build output and installs excluded). */
async function importsUnder(folder: string): Promise<Import[]> {
  const found: Import[] = [];
  for (const entry of await readdir(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts") || /[/\\](dist|node_modules)([/\\]|$)/.test(entry.parentPath)) continue;
    const file = join(entry.parentPath, entry.name);
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(/(import|export)(\s+type)?\s[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)) {
      found.push({ file: file.slice(ROOT.length), specifier: (match[3] ?? match[4]) as string, typeOnly: match[2] !== undefined });
    }
  }
  return found;
}

const NODE = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const RUNTIME = "oapi-mcp-gen-runtime";

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

/** What each source folder may import besides Node built-ins and files of its own folder. */
const RULES: Record<string, { folders: string[]; typeOnlyFolders?: string[]; packages: string[] }> = {
  runtime: {
    folders: [],
    packages: [
      "@jitl/quickjs-wasmfile-release-sync",
      "@modelcontextprotocol/sdk",
      "ajv",
      "ajv-formats",
      "fastest-levenshtein",
      "ipaddr.js",
      "jose",
      "minisearch",
      "quickjs-emscripten-core",
      "re2js",
      "sucrase",
      // Optional, loaded only when switched on: shared sign-in state (AUTH_STATE_URL), metrics and traces.
      "pg",
      "prom-client",
      "@opentelemetry/api",
      "@opentelemetry/core",
      "@opentelemetry/resources",
      "@opentelemetry/sdk-trace-base",
      "@opentelemetry/exporter-trace-otlp-http",
      // code.typeCheck's compiler: the generated package's own dependency then, and no peer of the runtime (npm keeps
      // a peer, even an optional one, in every production install that has it as a devDependency).
      "typescript",
    ],
  },
  // The runtime's face for the public-address check both the search server's fetches and proxy mode's use.
  openapi: {
    folders: [],
    packages: [RUNTIME, "yaml", "fastest-levenshtein", "swagger2openapi", "@redocly/openapi-core", "turndown", "openapi-format"],
  },
  // prettier: templates write text as prettier prints it (its quote choice and string widths).
  templates: { folders: [], packages: [RUNTIME, "ts-morph", "prettier"] },
  generator: {
    folders: ["openapi", "templates"],
    packages: [RUNTIME, "ajv", "ajv-formats", "any-ascii", "commander", "picomatch", "prettier", "ts-morph", "openapi-typescript", "yaml"],
  },
  search: {
    folders: ["openapi"],
    packages: [RUNTIME, "@modelcontextprotocol/sdk", "ajv", "commander", "fastest-levenshtein", "graphql", "minisearch", "pg", "yaml"],
  },
};

describe("package boundaries", () => {
  for (const [folder, rule] of Object.entries(RULES)) {
    it(`${folder}/ imports only its own files, ${[...rule.folders, ...(rule.typeOnlyFolders ?? [])].join(", ") || "no other folder"} and its packages`, async () => {
      const imports = await importsUnder(folder);
      expect(imports.length).toBeGreaterThan(5);
      for (const { file, specifier, typeOnly } of imports) {
        const where = `${file}: ${specifier}`;
        if (NODE.has(specifier)) continue;
        if (specifier.startsWith(".")) {
          expect(specifier, where).toMatch(/^(\.\.?\/)+([a-z0-9-.]+\/)*[a-z0-9-.]+\.(js|json)$/);
          const target = relative(ROOT, resolve(ROOT, dirname(file.replace(/^[/\\]/, "")), specifier)).split(sep)[0] as string;
          if (target === folder) continue;
          // The command-line entry dispatches `oapi-mcp-gen search` to the search server.
          const cliEntry = file.replace(/^[/\\]/, "") === "generator/cli/cli.ts" && specifier === "../../search/command.js";
          const allowed = cliEntry || rule.folders.includes(target) || (typeOnly && (rule.typeOnlyFolders ?? []).includes(target));
          expect(allowed, `${where} (${folder}/ may not import ${target}/${typeOnly ? "" : " values"})`).toBe(true);
          continue;
        }
        expect(rule.packages, where).toContain(packageOf(specifier));
      }
    });
  }

  it("scripts/ and bench/ take the runtime's values from its package: they run from dist/, which holds no runtime source", async () => {
    const imports = [...(await importsUnder("scripts")), ...(await importsUnder("bench"))];
    expect(imports.length).toBeGreaterThan(5);
    for (const { file, specifier, typeOnly } of imports) {
      if (!specifier.startsWith(".")) continue;
      const target = relative(ROOT, resolve(ROOT, dirname(file.replace(/^[/\\]/, "")), specifier)).split(sep)[0];
      if (target === "runtime") expect(typeOnly, `${file}: ${specifier} (import its values from ${RUNTIME})`).toBe(true);
    }
  });

  it("the runtime's own package.json declares exactly the packages it imports", async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, "runtime/package.json"), "utf8")) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    const used = new Set(
      (await importsUnder("runtime"))
        .map((i) => i.specifier)
        .filter((s) => !s.startsWith(".") && !NODE.has(s))
        .map(packageOf),
    );
    // What a deployment adds only to switch a feature on is an optional peer: never installed with the runtime.
    const optional = Object.keys(manifest.peerDependencies ?? {});
    for (const name of optional) expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
    // code.typeCheck's compiler is the generated package's own dependency when switched on: declared as a peer, even an
    // optional one, npm would keep it in every production install (the generated package builds with it).
    const fromTheServer = ["typescript"];
    expect([...used].sort()).toEqual([...Object.keys(manifest.dependencies), ...optional, ...fromTheServer].sort());
  });

  it("generated code imports only the runtime's public entry and its own modules", async () => {
    for (const folder of ["generated", "test/fixtures/kitchen-sink/generated"]) {
      const imports = await importsUnder(folder);
      expect(imports.length).toBeGreaterThan(5);
      for (const { file, specifier } of imports) {
        expect(specifier === RUNTIME || /^\.\.?\/[a-z0-9_/-]+\.js$/.test(specifier), `${file}: ${specifier}`).toBe(true);
        if (specifier.startsWith(".")) expect(specifier, file).not.toMatch(/runtime|generator|node_modules/);
      }
    }
  });
  it("no folder of product code holds more than 15 files: each is one concern, its face (index.ts) the way in", async () => {
    const crowded: string[] = [];
    for (const folder of ["generator", "runtime", "openapi", "search", "templates"]) {
      const counts = new Map<string, number>();
      for (const entry of await readdir(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith(".ts") || /[/\\](dist|node_modules)([/\\]|$)/.test(entry.parentPath)) continue;
        counts.set(entry.parentPath, (counts.get(entry.parentPath) ?? 0) + 1);
      }
      expect(counts.size).toBeGreaterThan(0);
      for (const [path, count] of counts) if (count > 15) crowded.push(`${relative(ROOT, path)}: ${count}`);
    }
    expect(crowded).toEqual([]);
  });

  it("product code holds at most 30 type assertions (`as const` aside): types are narrowed by checks, not asserted", async () => {
    const found: string[] = [];
    for (const folder of ["generator", "runtime", "openapi", "search", "templates"]) {
      for (const entry of await readdir(join(ROOT, folder), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/(?<!\.d)\.ts$/.test(entry.name) || /[/\\](dist|node_modules)([/\\]|$)/.test(entry.parentPath)) continue;
        const file = join(entry.parentPath, entry.name);
        const source = ts.createSourceFile(file, await readFile(file, "utf8"), ts.ScriptTarget.Latest, true);
        const visit = (node: ts.Node): void => {
          const asserted = ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
          if (asserted && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === "const"))
            found.push(`${file.slice(ROOT.length)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
          ts.forEachChild(node, visit);
        };
        visit(source);
      }
    }
    expect(found.length, found.join("\n")).toBeLessThanOrEqual(30);
  });
});
