// server.json for the MCP Registry (checked against the registry's own schema) and the opt-in MCP Bundle's files.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { isGeneratedText } from "../../../templates/header.js";
import {
  BUNDLE_FOLDER,
  type ListingFacts,
  REGISTRY_OWNER_PLACEHOLDER,
  SERVER_SCHEMA_URL,
  serverJsonText,
} from "../../../templates/listing.js";
import { ROOT } from "../../helpers/cli.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const SCHEMA_FILE = join(ROOT, "test/fixtures/mcp-registry/server.schema.json");

/** The registry's schema (draft-07) under strict Ajv with its formats; `example` is the OpenAPI annotation it keeps. */
async function serverJsonValidator() {
  const schema = JSON.parse(await readFile(SCHEMA_FILE, "utf8"));
  const ajv = addFormats(new Ajv({ allErrors: true }).addVocabulary(["example"]));
  return ajv.compile(schema);
}

// biome-ignore lint/suspicious/noExplicitAny: JSON files read as the tests index them
async function readJson(path: string): Promise<Record<string, any>> {
  return JSON.parse(await readFile(join(ROOT, path), "utf8"));
}

/** A `user_config` reference as an MCPB manifest writes it. */
const userConfig = (key: string) => `\${user_config.${key}}`;

/** Listing facts of a small server, as generate.ts gathers them. */
function facts(extra: Partial<ListingFacts> = {}): ListingFacts {
  return {
    name: "notes",
    version: "1.2.0",
    description: "MCP server for Notes",
    packageName: "notes-mcp-server",
    upstream: {},
    schemes: {},
    passthrough: { authorization: true, headers: [] },
    tools: [],
    ...extra,
  };
}

describe("server.json for the MCP Registry", () => {
  it("is the copy of the registry's 2025-12-11 schema its README names, byte for byte", async () => {
    const bytes = await readFile(SCHEMA_FILE);
    const readme = await readFile(join(ROOT, "test/fixtures/mcp-registry/README.md"), "utf8");
    expect(readme).toContain(createHash("sha256").update(bytes).digest("hex"));
    expect(JSON.parse(bytes.toString("utf8")).$id).toBe(SERVER_SCHEMA_URL);
  });

  it.each([
    ["generated", false],
    ["test/fixtures/kitchen-sink/generated", false],
    ["test/fixtures/cms/generated", true],
  ])("%s/server.json validates against the registry's schema, and package.json's mcpName is its name", async (folder, listed) => {
    const validate = await serverJsonValidator();
    const server = await readJson(`${folder}/server.json`);
    const pkg = await readJson(`${folder}/package.json`);
    expect(validate(server), JSON.stringify(validate.errors)).toBe(true);
    expect(server.$schema).toBe(SERVER_SCHEMA_URL);
    expect(pkg.mcpName).toBe(server.name);
    expect(server.version).toBe(pkg.version);
    expect(server.packages).toEqual([
      expect.objectContaining({
        registryType: "npm",
        identifier: pkg.name,
        version: pkg.version,
        transport: { type: "stdio" },
        packageArguments: [{ type: "positional", value: "--stdio" }],
      }),
    ]);
    // The npm entry runs: the package's bin is the built server, and its build is what gets packed.
    expect(Object.values(pkg.bin)).toEqual(["dist/server.js"]);
    expect(pkg.files).toEqual(["dist"]);
    expect((await readFile(join(ROOT, folder, "server.ts"), "utf8")).startsWith("#!/usr/bin/env node\n// Generated")).toBe(true);
    // Publishable only once the config names the server in the registry; a placeholder until then.
    expect(pkg.private).toBe(listed ? undefined : true);
    expect(server.name.startsWith(`${REGISTRY_OWNER_PLACEHOLDER}/`)).toBe(!listed);
    const readme = await readFile(join(ROOT, folder, "README.md"), "utf8");
    expect(readme).toContain("mcp-publisher publish");
    expect(readme.includes("**Before publishing:**")).toBe(!listed);
    // Recognised as the generator's own, so regeneration rewrites it and --check compares it.
    expect(isGeneratedText(await readFile(join(ROOT, folder, "server.json"), "utf8"))).toBe(true);
  });

  it("lists the variables a stdio client sets, secrets marked, and the public deployment only when the config gives one", async () => {
    const validate = await serverJsonValidator();
    const local = JSON.parse(serverJsonText(facts()));
    expect(validate(local), JSON.stringify(validate.errors)).toBe(true);
    expect(local.remotes).toBeUndefined();
    expect(local.name).toBe(`${REGISTRY_OWNER_PLACEHOLDER}/notes-mcp-server`);
    const scheme = { type: "apiKey" as const, in: "header" as const, name: "X-Key", env: { apiKey: "NOTES_API_KEY" } };
    const listed = JSON.parse(
      serverJsonText(
        facts({
          registryName: "io.github.acme/notes",
          publicUrl: "https://notes-mcp.example.com/",
          upstream: { defaultBaseUrl: "https://notes.example.com/v1", fromConfig: true },
          schemes: { key: scheme },
          title: "Notes",
        }),
      ),
    );
    expect(validate(listed), JSON.stringify(validate.errors)).toBe(true);
    expect(listed.name).toBe("io.github.acme/notes");
    expect(listed.title).toBe("Notes");
    expect(listed.packages[0].environmentVariables).toEqual([
      {
        name: "API_BASE_URL",
        description: expect.any(String),
        isRequired: false,
        isSecret: false,
        default: "https://notes.example.com/v1",
      },
      { name: "UPSTREAM_AUTHORIZATION", description: expect.any(String), isRequired: false, isSecret: true },
      { name: "NOTES_API_KEY", description: expect.any(String), isRequired: false, isSecret: true },
    ]);
    expect(listed.remotes).toEqual([
      { type: "streamable-http", url: "https://notes-mcp.example.com/mcp", headers: [expect.objectContaining({ name: "Authorization" })] },
    ]);
    // Callers who sign in (resource or proxy mode) send no header of their own; nothing forwarded, no UPSTREAM_AUTHORIZATION.
    const signedIn = JSON.parse(
      serverJsonText(
        facts({ publicUrl: "https://notes-mcp.example.com", signInMode: "resource", passthrough: { authorization: false, headers: [] } }),
      ),
    );
    expect(validate(signedIn), JSON.stringify(validate.errors)).toBe(true);
    expect(signedIn.remotes).toEqual([{ type: "streamable-http", url: "https://notes-mcp.example.com/mcp" }]);
    expect(signedIn.packages[0].environmentVariables.map((variable: { name: string }) => variable.name)).toEqual(["API_BASE_URL"]);
    // server.json allows 100 characters of description and title.
    const long = JSON.parse(serverJsonText(facts({ description: "d".repeat(300), title: "t".repeat(300) })));
    expect(validate(long), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe("the MCP Bundle, opt-in", () => {
  it("is absent by default: no manifest.json and no bundle script", async () => {
    const pkg = await readJson("generated/package.json");
    expect(pkg.scripts.bundle).toBeUndefined();
    expect(pkg.devDependencies["@anthropic-ai/mcpb"]).toBeUndefined();
    await expect(readFile(join(ROOT, "generated/manifest.json"))).rejects.toThrow();
  });

  it("with server.bundle: mcpb, a manifest that runs the built server over stdio with the user's settings, and npm run bundle", async () => {
    const folder = "test/fixtures/cms/generated";
    const manifest = await readJson(`${folder}/manifest.json`);
    const server = await readJson(`${folder}/server.json`);
    const pkg = await readJson(`${folder}/package.json`);
    expect(manifest.server).toEqual({
      type: "node",
      entry_point: "dist/server.js",
      mcp_config: {
        command: "node",
        args: [`${BUNDLE_FOLDER}/dist/server.js`, "--stdio"],
        env: {
          API_BASE_URL: userConfig("api_base_url"),
          UPSTREAM_AUTHORIZATION: userConfig("upstream_authorization"),
          BEARER_AUTH_TOKEN: userConfig("bearer_auth_token"),
        },
      },
    });
    // The same settings as server.json's npm entry, secrets as sensitive.
    const variables = server.packages[0].environmentVariables as { name: string; isSecret: boolean }[];
    expect(Object.keys(manifest.user_config)).toEqual(variables.map((variable) => variable.name.toLowerCase()));
    for (const variable of variables) expect(manifest.user_config[variable.name.toLowerCase()].sensitive === true).toBe(variable.isSecret);
    expect(manifest.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "read_items",
      "create_item",
      "read_item",
      "create_preset",
      "create_webhook",
      "create_permission",
      "get_asset",
      "ping",
    ]);
    expect(manifest.version).toBe(pkg.version);
    expect(pkg.scripts.bundle).toBe("npm run build && node deploy/bundle.mjs");
    expect(pkg.devDependencies["@anthropic-ai/mcpb"]).toMatch(/^\^2\./);
    expect(await readFile(join(ROOT, folder, ".gitignore"), "utf8")).toContain("/*.mcpb\n");
    expect(isGeneratedText(JSON.stringify(manifest, null, 2))).toBe(true);
  });
});
