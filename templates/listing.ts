import {
  type AuthDefinition,
  type SecuritySchemeDefinition as SchemeModel,
  suppliedValues,
  type UpstreamDefaults,
} from "oapi-mcp-gen-runtime";
import { GENERATED_HEADER, GENERATED_MARK } from "./header.js";
import type { ToolView } from "./tool-view.js";

/**
 * The MCP Registry's server.json schema the generated `server.json` follows (its copy: test/fixtures/mcp-registry/).
 * @see https://github.com/modelcontextprotocol/registry/blob/main/docs/reference/server-json/generic-server-json.md
 */
export const SERVER_SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/** The MCP Bundle tooling the generated `npm run bundle` packs with, and the manifest version it writes. */
export const MCPB_PACKAGE = "@anthropic-ai/mcpb";
export const MCPB_VERSION = "^2.1.2";
const MCPB_MANIFEST_VERSION = "0.3";

/** Node versions the generated package runs on (its `engines`, the bundle's `compatibility`). */
export const NODE_ENGINES = "^20.19.0 || ^22.12.0 || >=24.0.0";

/** Where a registry name stands in for the operator's own until `server.registryName` gives it. */
export const REGISTRY_OWNER_PLACEHOLDER = "io.github.OWNER";

/** What the listing files say about the server: its names, where it runs and what it reads from its environment. */
export interface ListingFacts {
  name: string;
  version: string;
  title?: string;
  /** What the server does, in a line (server.json allows 100 characters). */
  description: string;
  /** The generated package's npm name. */
  packageName: string;
  /** The config's `server.registryName`; absent: a placeholder. */
  registryName?: string;
  /** The config's `server.publicUrl`: a deployment everyone can reach. */
  publicUrl?: string;
  upstream: UpstreamDefaults;
  schemes: Record<string, SchemeModel>;
  passthrough: AuthDefinition["passthrough"];
  /** The config's `auth.mode` when callers sign in (a remote then needs no header of theirs). */
  signInMode?: "resource" | "proxy";
  tools: readonly ToolView[];
}

/** One setting a stdio client gives the server as an environment variable. */
export interface StdioSetting {
  variable: string;
  title: string;
  description: string;
  required: boolean;
  secret: boolean;
  default?: string;
}

/** The server's name in the MCP Registry: the config's, else the placeholder the README asks to replace. */
export function registryNameOf(facts: Pick<ListingFacts, "registryName" | "packageName">): string {
  return facts.registryName ?? `${REGISTRY_OWNER_PLACEHOLDER}/${facts.packageName.replace(/^@[^/]+\//, "").replaceAll("~", "-")}`;
}

/** Text cut to a length with an ellipsis (server.json's description and title allow 100 characters). */
function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Roles of a scheme's variables that hold a secret (a key, a token, a password, a client secret). */
const SECRET_ROLES = new Set(["apiKey", "token", "password", "clientSecret"]);

/**
 * What a stdio client sets for this server: the upstream, the caller's Authorization (stdio has no HTTP caller) where
 * the config forwards it, each server-held credential and each parameter the server reads from its environment.
 */
export function stdioSettings(facts: ListingFacts): StdioSetting[] {
  const { defaultBaseUrl, fromConfig } = facts.upstream;
  const settings: StdioSetting[] = [
    {
      variable: "API_BASE_URL",
      title: "API base URL",
      description: "Base URL of the upstream API, path included; operation paths are appended to it.",
      // A document's own server gets no credentials: only one the operator named does.
      required: !(defaultBaseUrl && fromConfig),
      secret: false,
      ...(defaultBaseUrl ? { default: defaultBaseUrl } : {}),
    },
  ];
  if (facts.passthrough.authorization)
    settings.push({
      variable: "UPSTREAM_AUTHORIZATION",
      title: "API Authorization header",
      description: "The Authorization header sent to the API, whole (e.g. Bearer <token>).",
      required: false,
      secret: true,
    });
  for (const [scheme, model] of Object.entries(facts.schemes))
    for (const [role, variable] of Object.entries(model.env))
      settings.push({
        variable,
        title: `${scheme} ${role}`,
        description: `Credential ${scheme} (${role}), sent by the server where the API asks for it.`,
        required: false,
        secret: SECRET_ROLES.has(role),
      });
  for (const tool of facts.tools)
    for (const value of suppliedValues(tool))
      if ("env" in value.source)
        settings.push({
          variable: value.source.env,
          title: value.name,
          description: `The ${value.in} parameter ${value.name}, sent by the server itself.`,
          required: false,
          // Read from the environment because it is a credential, as a rule (init proposes it for token, api_key, …).
          secret: true,
        });
  const seen = new Set<string>();
  return settings.filter((setting) => !seen.has(setting.variable) && seen.add(setting.variable));
}

/**
 * The server's entry for the MCP Registry: its npm package run over stdio (`--stdio`, the settings above), and its
 * public deployment as a streamable-http remote when the config names one.
 * @see https://github.com/modelcontextprotocol/registry/blob/main/docs/reference/server-json/generic-server-json.md
 */
export function serverJsonText(facts: ListingFacts): string {
  const environmentVariables = stdioSettings(facts).map((setting) => ({
    name: setting.variable,
    description: setting.description,
    isRequired: setting.required,
    isSecret: setting.secret,
    ...(setting.default !== undefined ? { default: setting.default } : {}),
  }));
  const callerHeader = facts.signInMode === undefined && facts.passthrough.authorization;
  const remote = facts.publicUrl
    ? {
        type: "streamable-http",
        url: `${facts.publicUrl.replace(/\/+$/, "")}/mcp`,
        ...(callerHeader
          ? {
              headers: [
                {
                  name: "Authorization",
                  description: "Your own credential at the API, forwarded to it (e.g. Bearer <token>).",
                  isRequired: false,
                  isSecret: true,
                },
              ],
            }
          : {}),
      }
    : undefined;
  const entry = {
    $schema: SERVER_SCHEMA_URL,
    _meta: { "io.modelcontextprotocol.registry/publisher-provided": { "//": GENERATED_MARK } },
    name: registryNameOf(facts),
    ...(facts.title ? { title: clip(facts.title, 100) } : {}),
    description: clip(facts.description, 100),
    version: facts.version,
    packages: [
      {
        registryType: "npm",
        identifier: facts.packageName,
        version: facts.version,
        transport: { type: "stdio" },
        packageArguments: [{ type: "positional", value: "--stdio" }],
        environmentVariables,
      },
    ],
    ...(remote ? { remotes: [remote] } : {}),
  };
  return `${JSON.stringify(entry, null, 2)}\n`;
}

/** A tool as the bundle's manifest names it. */
export interface ListedTool {
  name: string;
  description: string;
}

/** The bundle's folder in `mcp_config`, as the host substitutes it (MCPB's placeholder syntax, not a template literal). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: MCPB's own placeholder
export const BUNDLE_FOLDER = "${__dirname}";

/** The `user_config` key a setting is asked under (`API_BASE_URL` → `api_base_url`). */
function configKey(variable: string): string {
  return variable.toLowerCase().replace(/[^a-z0-9_]/g, "_");
}

/**
 * The MCP Bundle's manifest: Node runs the built server over stdio from the bundle's folder, its settings asked of the
 * user (secrets as sensitive) and handed over as environment variables; the tools it lists.
 * @see https://github.com/anthropics/mcpb/blob/main/MANIFEST.md
 */
export function mcpbManifestText(facts: ListingFacts, tools: readonly ListedTool[]): string {
  const settings = stdioSettings(facts);
  const registryName = registryNameOf(facts);
  const manifest = {
    manifest_version: MCPB_MANIFEST_VERSION,
    _meta: { "oapi-mcp-gen": { "//": GENERATED_MARK } },
    name: facts.packageName.replace(/^@[^/]+\//, ""),
    display_name: facts.title ?? facts.name,
    version: facts.version,
    description: facts.description,
    author: { name: registryName.slice(0, registryName.indexOf("/")) },
    server: {
      type: "node",
      entry_point: "dist/server.js",
      mcp_config: {
        command: "node",
        args: [`${BUNDLE_FOLDER}/dist/server.js`, "--stdio"],
        env: Object.fromEntries(settings.map((setting) => [setting.variable, `\${user_config.${configKey(setting.variable)}}`])),
      },
    },
    tools: tools.map((tool) => ({ name: tool.name, description: clip(tool.description, 300) })),
    compatibility: { platforms: ["darwin", "linux", "win32"], runtimes: { node: NODE_ENGINES } },
    user_config: Object.fromEntries(
      settings.map((setting) => [
        configKey(setting.variable),
        {
          type: "string",
          title: setting.title,
          description: setting.description,
          required: setting.required,
          ...(setting.secret ? { sensitive: true } : {}),
          ...(setting.default !== undefined ? { default: setting.default } : {}),
        },
      ]),
    ),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * `npm run bundle`'s packing step, after the build: the built server, its manifest and its production dependencies
 * (`npm ci --omit=dev`, or `install` without a lockfile) in a staging folder, packed with `@anthropic-ai/mcpb` into
 * `file`. `copies` are what the install needs beside the package (a vendored runtime, its tarball).
 */
export function bundleScriptText(file: string, copies: readonly string[]): string {
  const paths = ["manifest.json", "package.json", "package-lock.json", ".npmrc", "README.md", "dist", ...copies];
  return `${GENERATED_HEADER}// npm run bundle: the built server, its manifest and its production dependencies, packed as an MCP Bundle.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const mcpb = await import(${JSON.stringify(`${MCPB_PACKAGE}/cli`)}).catch(() => undefined);
if (!mcpb) {
  console.error("npm run bundle packs with ${MCPB_PACKAGE}, a devDependency of this folder that is not installed: run npm install first");
  process.exit(1);
}
const folder = fileURLToPath(new URL("..", import.meta.url));
const output = join(folder, ${JSON.stringify(file)});
const stage = mkdtempSync(join(tmpdir(), "mcpb-"));
try {
  for (const path of [${paths.map((path) => JSON.stringify(path)).join(", ")}])
    if (existsSync(join(folder, path))) cpSync(join(folder, path), join(stage, path), { recursive: true });
  const args = [existsSync(join(stage, "package-lock.json")) ? "ci" : "install", "--omit=dev", "--no-audit", "--no-fund"];
  // Under npm run, npm_execpath is npm's own script: no shell is needed to find it, on any platform.
  const npm = process.env.npm_execpath;
  if (npm) execFileSync(process.execPath, [npm, ...args], { cwd: stage, stdio: "inherit" });
  else execFileSync("npm", args, { cwd: stage, stdio: "inherit", shell: process.platform === "win32" });
  // The install's settings may hold a registry token: they never go into the bundle.
  rmSync(join(stage, ".npmrc"), { force: true });
  if (!(await mcpb.packExtension({ extensionPath: stage, outputPath: output }))) process.exitCode = 1;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
`;
}

/** What the README says about listing the server: its names, its deployment, its bundle. */
export interface ListingReadme {
  packageName: string;
  registryName: string;
  /** `registryName` is the placeholder: the config gives none. */
  placeholder: boolean;
  publicUrl?: string;
  /** The `.mcpb` file `npm run bundle` writes, when the bundle is on. */
  bundle?: string;
}

/** The README's "List it" section: npm and the MCP Registry (server.json), a public deployment, the desktop bundle. */
export function listingSection(listing: ListingReadme, folder: string, vendored: boolean): string[] {
  const name = `\`${listing.registryName}\``;
  return [
    "## List it",
    "",
    `\`server.json\` describes this server for the [MCP Registry](https://registry.modelcontextprotocol.io) as ${name}: the npm package \`${listing.packageName}\` run over stdio (\`npx ${listing.packageName} --stdio\`) with the settings it reads (\`API_BASE_URL\`, the credentials; secrets marked as such)${listing.publicUrl ? `, and the deployment at \`${listing.publicUrl.replace(/\/+$/, "")}/mcp\` (Streamable HTTP; start it there with \`PUBLIC_URL=${listing.publicUrl}\`)` : ""}. ${listing.publicUrl ? "" : "`server.publicUrl` in the config lists a deployment everyone can reach as well. "}\`package.json\` names it too (\`mcpName\`), which is how the registry knows the package is yours.`,
    "",
    ...(listing.placeholder
      ? [
          `> **Before publishing:** ${name} is a placeholder. Set \`server.registryName\` in the config to a name in a namespace you can prove (\`io.github.<your account or organisation>/…\`, or a domain of yours reversed, \`com.example/…\`) and generate again; until then the package is \`private\`, so \`npm publish\` refuses it.`,
          "",
        ]
      : []),
    ...(vendored
      ? [
          "> This folder carries its runtime (`--runtime vendor` or `tarball`), which a package on npm cannot: publish from a folder generated with `--runtime registry`.",
          "",
        ]
      : []),
    "```sh",
    `cd ${folder}`,
    "npm install && npm publish --access public   # builds first (prepublishOnly); only dist/ is packed",
    "mcp-publisher login github                   # the registry's CLI (brew install mcp-publisher, or a release binary from github.com/modelcontextprotocol/registry); dns or http for a domain namespace",
    "mcp-publisher publish                        # reads server.json",
    "```",
    "",
    ...(listing.bundle
      ? [
          `**Desktop bundle**: after \`npm install\` (which installs the bundle tooling, a devDependency), \`npm run bundle\` builds, installs the production dependencies apart and packs them with \`manifest.json\` into \`${listing.bundle}\`, an [MCP Bundle](https://github.com/anthropics/mcpb) that Claude Desktop and other hosts install with a click and run over stdio with their own Node, asking the user for the settings (credentials kept as secrets). \`npx mcpb validate manifest.json\` checks the manifest, \`npx mcpb info ${listing.bundle}\` the bundle; sign it with \`npx mcpb sign\`.`,
        ]
      : [
          "**Desktop bundle**: `server.bundle: mcpb` in the config (or `--mcpb`) adds a `manifest.json` and `npm run bundle`, which packs this server as an [MCP Bundle](https://github.com/anthropics/mcpb) (`.mcpb`) that Claude Desktop and other hosts install with a click.",
        ]),
    "",
  ];
}
