import { GENERATED_HASH_HEADER, GENERATED_MARK } from "./header.js";
import { MCPB_PACKAGE, MCPB_VERSION, NODE_ENGINES } from "./listing.js";

/** What the generated package.json pins: the runtime it was generated for and the compiler that builds it. */
export interface PackageFacts {
  name: string;
  version: string;
  description: string;
  /** The dependency on `oapi-mcp-gen-runtime`: `^version`, or a `file:` one (`--runtime vendor` or `tarball`). */
  runtimeDependency: string;
  /** The config's `server.include`: the runtime's optional packages this deployment switches on. */
  include?: readonly IncludedPart[];
  /** Code mode checks programs (`code.typeCheck`): the compiler is a dependency of the server, not only of its build. */
  typeCheck?: boolean;
  /** The package's npm name: the config's `server.packageName`, else `packageName(name)`. */
  packageName?: string;
  /** The server's name in the MCP Registry (server.json's `name`), which npm shows the registry as `mcpName`. */
  mcpName: string;
  /** The config names the server in the registry: the package is to be published (no `private`). */
  listed?: boolean;
  /** An MCP Bundle is built (`npm run bundle`, with `@anthropic-ai/mcpb`) by this script. */
  bundleScript?: string;
}

/** The compiler the generated folder builds with (and, with `code.typeCheck`, checks programs with). */
const TYPESCRIPT_VERSION = "^5.9.3";

/** What a deployment may switch on that needs a package of its own beside the runtime. */
export type IncludedPart = "metrics" | "traces" | "postgres";

/** The packages each part needs, at the versions the runtime is tested with (its optional peers). */
export const INCLUDED_PACKAGES: Readonly<Record<IncludedPart, Readonly<Record<string, string>>>> = {
  metrics: { "prom-client": "^15.1.3" },
  traces: {
    "@opentelemetry/api": "^1.9.0",
    "@opentelemetry/core": "^2.12.1",
    "@opentelemetry/exporter-trace-otlp-http": "^0.223.1",
    "@opentelemetry/resources": "^2.12.1",
    "@opentelemetry/sdk-trace-base": "^2.12.1",
  },
  postgres: { pg: "^8.23.1" },
};

/**
 * The generated folder's own package: ESM whatever the host project is, the runtime as its only dependency, and
 * `build`/`start` scripts, so `npm install && npm run build && npm start` works inside it. It is publishable as the npm
 * package server.json names: its `bin` is the built server (`npx <package> --stdio`), `files` the build (the folder's
 * .gitignore would leave dist/ out), `mcpName` the registry's name for it; `private` keeps it off npm until the config
 * gives that name (`server.registryName`).
 */
export function packageJsonText(facts: PackageFacts): string {
  const name = facts.packageName ?? packageName(facts.name);
  const manifest = {
    "//": GENERATED_MARK,
    name,
    version: facts.version,
    description: facts.description,
    ...(facts.listed ? {} : { private: true }),
    mcpName: facts.mcpName,
    type: "module",
    engines: { node: NODE_ENGINES },
    main: "dist/server.js",
    bin: { [name.replace(/^@[^/]+\//, "")]: "dist/server.js" },
    files: ["dist"],
    scripts: {
      build: "tsc -p tsconfig.json",
      start: "node dist/server.js",
      prepublishOnly: "npm run build",
      ...(facts.bundleScript ? { bundle: `npm run build && node ${facts.bundleScript}` } : {}),
    },
    dependencies: dependenciesOf(facts),
    // The compiler builds the folder; where code mode checks programs it also runs with the server.
    devDependencies: {
      ...(facts.bundleScript ? { [MCPB_PACKAGE]: MCPB_VERSION } : {}),
      ...(facts.typeCheck ? {} : { typescript: TYPESCRIPT_VERSION }),
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The runtime and the packages of the parts the config includes, in the order npm writes them (by name). */
function dependenciesOf(facts: PackageFacts): Record<string, string> {
  const all: Record<string, string> = { "oapi-mcp-gen-runtime": facts.runtimeDependency };
  for (const part of facts.include ?? []) Object.assign(all, INCLUDED_PACKAGES[part]);
  if (facts.typeCheck) all.typescript = TYPESCRIPT_VERSION;
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b, "en")));
}

/** Compiler settings of the generated folder: strict, NodeNext, no ambient types needed, output in `dist/`. */
export function tsconfigText(vendored = false): string {
  const config = {
    "//": GENERATED_MARK,
    compilerOptions: {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2023"],
      types: [],
      strict: true,
      skipLibCheck: true,
      // Declarations beside the built modules: a CommonJS TypeScript project imports `dist/client.js` with its types.
      declaration: true,
      outDir: "dist",
      rootDir: ".",
    },
    include: ["**/*.ts"],
    exclude: ["dist", "node_modules", ...(vendored ? ["vendor"] : [])],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * Keeps installs and build output of the generated folder out of version control, and keeps in what the folder needs:
 * a vendored runtime (its `dist/`) or the runtime's tarball, whatever a project-wide rule (`dist/`, `build/`, `*.tgz`)
 * says: this file's rules win over those of folders above it.
 */
export function gitignoreText(runtime: "registry" | "vendor" | "tarball" = "registry", bundle = false): string {
  // Anchored: a vendored runtime's own dist/ (vendor/oapi-mcp-gen-runtime/dist) is committed with the folder.
  const kept =
    runtime === "vendor"
      ? "# The vendored runtime is part of the folder, whatever a rule above says.\n!/vendor/\n!/vendor/**\n"
      : runtime === "tarball"
        ? "# The runtime's tarball is part of the folder, whatever a rule above says.\n!/oapi-mcp-gen-runtime-*.tgz\n"
        : "";
  return `${GENERATED_HASH_HEADER}/node_modules/
/dist/
${bundle ? "/*.mcpb\n" : ""}${kept}`;
}

/** An npm package name from the server name (lower case, URL-safe, at most 214 characters). */
export function packageName(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+/, "")
    .slice(0, 200);
  return `${base || "api"}-mcp-server`;
}
