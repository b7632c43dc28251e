import { firstSentence, headerRefusal, type SignInProvider } from "oapi-mcp-gen-runtime";
import { apiParts } from "oapi-mcp-gen-runtime/discovery";
import { applyOverlays, normalizeDocument, type OpenApiDocument, type Overlay, readDocumentSource } from "../openapi/document/index.js";
import { type ApiModel, buildApiModel, pruneDocument } from "../openapi/model/index.js";
import { bundleExternalRefs, type ExternalRefPolicy } from "../openapi/references/index.js";
import { clientModule } from "../templates/client-module.js";
import { ciWorkflowText, DEFAULT_PATHS, dockerfileText, dockerignoreText, type GenerationPaths } from "../templates/deploy.js";
import { DISCOVERY_MODULE, discoveryModule } from "../templates/discovery-module.js";
import { bundleScriptText, type ListingFacts, mcpbManifestText, registryNameOf, serverJsonText } from "../templates/listing.js";
import type { ModuleSource } from "../templates/literal-slots.js";
import { gitignoreText, packageJsonText, packageName, tsconfigText } from "../templates/package.js";
import { readmeSource } from "../templates/readme.js";
import { type RegistryAuth, registryModule, SERVER_SETTINGS, serverSettingsModule } from "../templates/registry.js";
import { schemasModule } from "../templates/schemas-module.js";
import { serverEntryModule } from "../templates/server-entry.js";
import { toolDefinition, toolModule, toolModuleNames } from "../templates/tool-module.js";
import { UserError } from "./base/errors.js";
import { packageVersion } from "./base/package-version.js";
import { type Clock, NO_CLOCK } from "./base/stage-clock.js";
import { cachedText, contentKey, type RenderCache } from "./cache/render-cache.js";
import { type GeneratorConfig, type ResolvedConfig, resolveConfig } from "./config/config.js";
import { MCP_EXTENSION, withDocumentMarks } from "./config/document-marks.js";
import { FORMAT_FINGERPRINT } from "./layout/format.js";
import { buildTools } from "./model/build-tools.js";
import { codeFacts, codeSettings } from "./model/code-mode.js";
import { alwaysListedTools, type ServingMode, searchableOperations, servingMode, usedTagNotes } from "./model/discovery.js";
import { linkedSuppliers } from "./model/linked-ids.js";
import { securitySchemes } from "./model/security.js";
import { upstreamDefaults } from "./model/servers.js";
import type { ToolModel } from "./model/tool-model.js";
import { checkBudget, discoveryListSize, servedTools, type ToolsListSize, toolsModeListSize } from "./model/tools-list.js";
import { renderModules } from "./output/render.js";
import {
  type RuntimeSource,
  runtimeCopies,
  runtimeDependency,
  runtimeTarball,
  vendoredRuntime,
  vendorNpmrc,
} from "./output/vendor-runtime.js";
import { shareSchemas } from "./schema/shared-schemas.js";
import { selectOperations } from "./select/select.js";
import { SideThread } from "./threads/side-thread.js";

/** The generated tree, by path relative to the output directory, plus what the run noticed. */
export interface GenerationResult {
  /** The config the run used (the default one when there was no file), its defaults applied. */
  config: ResolvedConfig;
  files: Map<string, string>;
  tools: ToolModel[];
  warnings: string[];
  /** The `tools/list` the generated server answers (in discovery mode, the three discovery tools and alwaysList). */
  toolsList: ToolsListSize;
  /** How the server lists its operations: each as a tool, or through the discovery tools. */
  mode: ServingMode;
}

const TYPES_FILE = "api-types.ts";
const openapiTsVersion = packageVersion("openapi-typescript");
/** The runtime this generator writes code for; the generated package depends on its minor line. */
export const RUNTIME_VERSION = packageVersion("oapi-mcp-gen-runtime");
/** What decides the formatted README besides its text. */
const README_FINGERPRINT = `${FORMAT_FINGERPRINT} markdown, tool table laid out`;
const TYPES_FINGERPRINT = `openapi-typescript ${openapiTsVersion} ${FORMAT_FINGERPRINT} member layout 1 empty objects unknown, lenient WithRequired, path refs inlined, format characters escaped`;

/** How a run is carried out: where its inputs came from, its render cache, and who hears about its stages. */
export interface GenerationOptions {
  /** The document's own URL, when it was fetched (relative servers resolve against it). */
  documentUrl?: string;
  cache?: RenderCache;
  /** The paths the CI workflow names. */
  paths?: GenerationPaths;
  /** Told each stage as it starts (the CLI prints them on a terminal). */
  progress?: (stage: string) => void;
  /** Times each stage (`--timings`). */
  clock?: Clock;
  /** Formats every module and the types with prettier alone, not through the layouts (what those are tested against). */
  prettierOnly?: boolean;
  /** Where the generated package gets its runtime: the registry (default), or a copy in `vendor/` (`--runtime vendor`). */
  runtime?: RuntimeSource;
  /** A side thread started before the run (the CLI warms one while it reads a large document); its starter closes it. */
  side?: SideThread;
  /** Also an MCP Bundle (`--mcpb`), whatever the config's `server.bundle` says. */
  mcpb?: boolean;
  /** OpenAPI Overlays applied in order to the document as it was read, before anything reads it (`generateFromFile`). */
  overlays?: readonly Overlay[];
}

/** A config for a run without a config file: every operation, the server named after the document's title. */
export function defaultConfigFor(model: ApiModel): GeneratorConfig {
  const title = model.info.title;
  const name =
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 48)
      .replace(/-+$/, "") || "api";
  return { server: { name, ...(title ? { title: title.slice(0, 200) } : {}) }, select: { all: true } };
}

/** Reads an OpenAPI 3.x document into the model and generates from it. */
export function generateFromDocument(
  document: OpenApiDocument,
  config: GeneratorConfig,
  options: GenerationOptions = {},
): Promise<GenerationResult> {
  return generateFromModel(buildApiModel(document), config, options);
}

/** Runs the pipeline in memory: select → tool model → definitions → prune → types → structures → prettier. */
export async function generateFromModel(
  model: ApiModel,
  given: GeneratorConfig,
  options: GenerationOptions = {},
): Promise<GenerationResult> {
  const side = options.side ?? new SideThread();
  try {
    return await generateBeside(side, model, given, options);
  } finally {
    if (options.side === undefined) side.close();
  }
}

/** A promise awaited later: its failure is not reported as unhandled before then. */
function later<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** The pipeline, with the types and the README made on a side thread while this thread builds and renders the tools. */
async function generateBeside(
  side: SideThread,
  model: ApiModel,
  given: GeneratorConfig,
  options: GenerationOptions,
): Promise<GenerationResult> {
  const declared = resolveConfig(given);
  const { documentUrl, paths = DEFAULT_PATHS, progress = () => {}, clock = NO_CLOCK, prettierOnly = false, runtime = "registry" } = options;
  const bundle = options.mcpb === true || declared.server.bundle === "mcpb";
  // Rendered text is cached by content and renderer: prettier alone renders the same text, but is not to be cached.
  const cache = prettierOnly ? undefined : options.cache;
  progress("selecting operations");
  const entries = await clock.time("select operations", () => selectOperations(model, declared));
  // What the document says of its operations for MCP (x-mcp) lies beneath the config's own word.
  const { config, warnings: markWarnings } = withDocumentMarks(declared, entries);
  side.sizeFor(entries.length);
  const pruned = await clock.time("prune document for types", () => pruneDocument(model.document, entries));
  const types = later(
    clock.time("‖ types: openapi-typescript + layout", () => {
      const document = JSON.stringify(pruned);
      return cachedText(
        cache,
        contentKey(TYPES_FINGERPRINT, document),
        () => side.text({ kind: "types", document, prettierOnly }),
        TYPES_FILE,
      );
    }),
  );
  progress(`building ${entries.length} tool${entries.length === 1 ? "" : "s"}`);
  const tools = await clock.time("tool models", () => buildTools(model, entries, config));
  const definitions = await clock.time("tool definitions", () => tools.map(toolDefinition));
  const { name, version, title, instructions } = config.server;
  const code = codeSettings(config, tools);
  // The whole list in tools mode, measured only when the mode needs it (auto mode's count alone may decide).
  let measured: ReturnType<typeof toolsModeListSize> | undefined;
  const allListed = () => {
    measured ??= clock.timeSync("tools/list size", () => toolsModeListSize(definitions, title ?? name, code));
    return measured;
  };
  const mode = servingMode(config, tools.length, allListed);
  // Discovery and code mode both find operations by search: the generated server carries the search index.
  const searches = mode !== "tools";
  const alwaysList = searches ? alwaysListedTools(config, tools) : [];
  const tags = entries.map((entry) => entry.tags);
  const tagNotes = new Map(model.tags.map((tag) => [tag.name, firstSentence(tag.description)]));
  const parts = searches
    ? apiParts(
        tags,
        usedTagNotes(tags, tagNotes),
        definitions.map((definition) => definition._meta.path),
      )
    : [];
  const toolsList = searches ? discoveryListSize(title ?? name, definitions, alwaysList, code, parts) : allListed();
  checkBudget(toolsList, config.budget);
  // The search index is built on the side thread while this one builds and renders the tool modules.
  const discovery = searches
    ? later(
        clock.time("‖ discovery search index", () =>
          side.discovery({
            operations: searchableOperations(definitions, tags, tagNotes),
            tags,
            alwaysList,
            tagNotes: [...tagNotes],
            links: linkedSuppliers(
              model.document,
              entries,
              definitions.map((definition) => definition.name),
            ),
          }),
        ),
      )
    : undefined;
  const structures = new Map<string, ModuleSource>();
  await clock.time("module structures", () => {
    const shared = shareSchemas(tools);
    tools.forEach((tool, index) => {
      const definition = definitions[index] ?? toolDefinition(tool);
      structures.set(`${toolModuleNames(tool).file}.ts`, toolModule(tool, definition, "../api-types.js", shared));
    });
    if (shared.constants.length > 0) structures.set("schemas.ts", schemasModule(shared));
  });
  const identity = { name, version, ...(title ? { title } : {}), ...(instructions ? { instructions } : {}) };
  const { registryName, publicUrl } = config.server;
  const npmName = config.server.packageName ?? packageName(name);
  const bundleFile = `${npmName.replace(/^@[^/]+\//, "")}.mcpb`;
  const upstream = upstreamDefaults(model, config.baseUrl, documentUrl);
  const auth = registryAuth(model, tools, config);
  const reachWarnings = credentialReachWarnings(auth, tools);
  structures.set(`${SERVER_SETTINGS}.ts`, serverSettingsModule(identity, upstream, auth, code));
  structures.set("index.ts", { structure: registryModule(tools), literals: [] });
  structures.set("client.ts", clientModule(tools));
  structures.set("server.ts", { structure: serverEntryModule(searches, code !== undefined), literals: [] });
  progress(`rendering types and ${structures.size + (discovery ? 1 : 0)} modules`);
  const facts = {
    name,
    version,
    ...(title ? { title } : {}),
    document: { title: model.info.title, version: model.info.version },
    tools,
    upstream,
    schemes: auth.schemes,
    passthrough: auth.passthrough,
    ...(auth.prefer ? { prefer: auth.prefer } : {}),
    ...(auth.mode === "resource" || auth.mode === "proxy" ? { signInMode: auth.mode } : {}),
    paths,
    ...(mode === "discovery" ? { discovery: { alwaysList } } : {}),
    ...(mode === "tools" && allListed().describes ? { describes: true } : {}),
    ...(code ? { code: codeFacts(code, definitions) } : {}),
    ...(runtime !== "registry" ? { runtime: { source: runtime, tarball: runtimeTarball(RUNTIME_VERSION) } } : {}),
    listing: {
      packageName: npmName,
      registryName: registryNameOf({ packageName: npmName, ...(registryName ? { registryName } : {}) }),
      placeholder: registryName === undefined,
      ...(publicUrl ? { publicUrl } : {}),
      ...(bundle ? { bundle: bundleFile } : {}),
    },
    curation: {
      overlays: [...(declared.overlays ?? []), ...(paths.overlays ?? [])],
      marked: entries.flatMap((entry) =>
        entry.operationId !== undefined && entry.declared[MCP_EXTENSION] !== undefined ? [entry.operationId] : [],
      ),
    },
  };
  const readme = readmeSource(facts);
  const formattedReadme = later(
    clock.time("‖ README", () =>
      cachedText(
        cache,
        contentKey(README_FINGERPRINT, JSON.stringify(readme)),
        () => side.text({ kind: "readme", source: readme, prettierOnly }),
        "README.md",
      ),
    ),
  );
  // This thread (and worker threads, on more cores) render the modules meanwhile; the discovery module once its data comes.
  const modules = await clock.time(`‖ modules: ts-morph + prettier + layout (${structures.size})`, () =>
    renderModules(structures, cache, prettierOnly),
  );
  if (discovery) {
    const data = await discovery;
    const rendered = await clock.time("discovery module", () =>
      renderModules(new Map([[`${DISCOVERY_MODULE}.ts`, discoveryModule(data)]]), cache, prettierOnly),
    );
    for (const [path, text] of rendered) modules.set(path, text);
  }
  const files = new Map<string, string>([
    [TYPES_FILE, await types],
    ["README.md", await formattedReadme],
  ]);
  for (const [path, text] of modules) files.set(path, text);
  const description = `MCP server for ${facts.document.title || name}`.slice(0, 300);
  const vendored = runtime === "vendor";
  const runtimeDependencyText = runtimeDependency(runtime, RUNTIME_VERSION);
  const include = config.server.include ?? [];
  const listing: ListingFacts = {
    name,
    version,
    ...(title ? { title } : {}),
    description,
    packageName: npmName,
    ...(registryName ? { registryName } : {}),
    ...(publicUrl ? { publicUrl } : {}),
    upstream,
    schemes: auth.schemes,
    passthrough: auth.passthrough,
    ...(facts.signInMode ? { signInMode: facts.signInMode } : {}),
    tools,
  };
  const bundleScript = "deploy/bundle.mjs";
  files.set(
    "package.json",
    packageJsonText({
      name,
      version,
      description,
      runtimeDependency: runtimeDependencyText,
      include,
      ...(code?.typeCheck ? { typeCheck: true } : {}),
      packageName: npmName,
      mcpName: registryNameOf(listing),
      ...(registryName ? { listed: true } : {}),
      ...(bundle ? { bundleScript } : {}),
    }),
  );
  files.set("server.json", serverJsonText(listing));
  if (bundle) {
    const listed = servedTools(searches, definitions, title ?? name, alwaysList, code, parts).map((tool) => ({
      name: tool.name,
      description: firstSentence(tool.description) || tool.description,
    }));
    files.set("manifest.json", mcpbManifestText(listing, listed));
    const copies = runtime === "vendor" ? ["vendor"] : runtime === "tarball" ? [runtimeTarball(RUNTIME_VERSION)] : [];
    files.set(bundleScript, bundleScriptText(bundleFile, copies));
  }
  files.set("tsconfig.json", tsconfigText(vendored));
  files.set(".gitignore", gitignoreText(runtime, bundle));
  files.set(".dockerignore", dockerignoreText(bundle));
  files.set("deploy/Dockerfile", dockerfileText(name, runtimeCopies(runtime, RUNTIME_VERSION)));
  if (vendored) {
    files.set(".npmrc", vendorNpmrc());
    for (const [path, text] of vendoredRuntime()) files.set(path, text);
  }
  files.set("deploy/oapi-mcp-check.yml", ciWorkflowText(paths, runtime === "registry" ? undefined : runtime));
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    config,
    files: sorted,
    tools,
    warnings: [...markWarnings, ...reachWarnings, ...tools.flatMap((tool) => tool.warnings)],
    toolsList,
    mode,
  };
}

/**
 * The schemes the selected tools name (every scheme of the document under `auth.apply: all`, in document order), the
 * apply policy and the configured passthrough.
 */
function registryAuth(model: ApiModel, tools: readonly ToolModel[], config: ResolvedConfig): RegistryAuth {
  const all = config.auth.apply === "all";
  const used = new Set(tools.flatMap((tool) => (tool.security ?? []).flatMap((requirement) => Object.keys(requirement))));
  const every = Object.entries(securitySchemes(model));
  const schemes = Object.fromEntries(every.filter(([name]) => all || used.has(name)));
  const undeclared = Object.fromEntries(
    every.filter(([name]) => !all && !used.has(name)).map(([name, scheme]) => [name, Object.values(scheme.env)]),
  );
  const { passthrough } = config.auth;
  const refused = passthrough.headers.flatMap((name) => {
    const refusal = headerRefusal(name);
    if (refusal === undefined) return [];
    const hint = name.toLowerCase() === "authorization" ? " (auth.passthrough.authorization forwards it)" : "";
    return [`auth.passthrough.headers: "${name}" ${refusal}; it cannot be passed through${hint}`];
  });
  if (refused.length > 0) throw new UserError(refused);
  return {
    schemes,
    ...(all ? { apply: "all" as const } : {}),
    ...(config.auth.prefer === "caller" ? { prefer: "caller" as const } : {}),
    ...(config.auth.mode !== "passthrough" ? { mode: config.auth.mode } : {}),
    passthrough: { authorization: passthrough.authorization, headers: passthrough.headers },
    ...signInProvider(model, config),
    ...(Object.keys(undeclared).length > 0 ? { undeclared } : {}),
  };
}

/** Where proxy mode signs users in: the config's `auth.provider`, else the document's first authorization-code flow. */
function signInProvider(model: ApiModel, config: ResolvedConfig): { provider?: SignInProvider } {
  if (config.auth.provider) return { provider: config.auth.provider };
  const flow = [...model.securitySchemes.values()].find((scheme) => scheme.authorizationCode)?.authorizationCode;
  return flow ? { provider: { authorizationUrl: flow.authorizationUrl, tokenUrl: flow.tokenUrl } } : {};
}

/**
 * Under `auth.apply: declared`, a scheme the document declares on under half of the selected operations: a
 * server-held credential for it would reach only those, and the rest would fail with 401 or 403 and no word why.
 */
function credentialReachWarnings(auth: RegistryAuth, tools: readonly ToolModel[]): string[] {
  if (auth.apply === "all") return [];
  // A document that declares security on most operations, each its own scheme, means it: only one that declares it on
  // few (Directus: 7 of 136) leaves the rest without the operator's credential.
  const declaringAny = tools.filter((tool) => (tool.security ?? []).some((requirement) => Object.keys(requirement).length > 0)).length;
  if (declaringAny * 2 >= tools.length) return [];
  return Object.entries(auth.schemes).flatMap(([name, scheme]) => {
    const declaring = tools.filter((tool) => (tool.security ?? []).some((requirement) => Object.hasOwn(requirement, name))).length;
    if (declaring * 2 >= tools.length) return [];
    const variables = Object.values(scheme.env).join(", ");
    return [
      `auth: the document declares ${name} on ${declaring} of ${tools.length} selected operations, so its server-held credential (${variables}) goes only with those; if the API takes it everywhere, set auth.apply: all`,
    ];
  });
}

/** Files in the document's folder only: what a run without a config follows. */
const DEFAULT_REF_POLICY: ExternalRefPolicy = { outsideFolder: false };

/** The config's `externalRefs` as the bundler's policy. */
export function externalRefPolicy(config: ResolvedConfig): ExternalRefPolicy {
  const { urls, outsideFolder } = config.externalRefs;
  return {
    outsideFolder,
    ...(urls === true || Array.isArray(urls)
      ? { urls: { allowedHosts: new Map(urls === true ? [] : urls.map((host) => [host.toLowerCase(), "any port"] as const)) } }
      : {}),
  };
}

/** Reads (from a path or an http(s) URL), bundles external references, normalises and generates from a document. */
export async function generateFromFile(
  specPath: string,
  config: GeneratorConfig | ((model: ApiModel) => GeneratorConfig),
  options: Omit<GenerationOptions, "documentUrl"> = {},
): Promise<GenerationResult> {
  const clock = options.clock ?? NO_CLOCK;
  options.progress?.("reading the document");
  const { document: parsed, url } = await clock.time("read and parse document", () => readDocumentSource(specPath));
  const overlaid = await clock.time("apply overlays", () => applyOverlays(parsed, options.overlays ?? []));
  const read = overlaid.document;
  const overlayWarnings = overlaid.unmatched.map((action) => `overlay ${action} matches nothing in the document`);
  const policy = typeof config === "function" ? DEFAULT_REF_POLICY : externalRefPolicy(resolveConfig(config));
  const raw = await clock.time("bundle external references", () => bundleExternalRefs(read, url ?? specPath, policy));
  const { document, warnings } = await clock.time("normalise (Swagger 2.0, 3.1)", () => normalizeDocument(raw, specPath));
  const model = await clock.time("build the model", () => buildApiModel(document));
  const chosen = typeof config === "function" ? config(model) : config;
  const result = await generateFromModel(model, chosen, { ...options, ...(url ? { documentUrl: url } : {}) });
  return { ...result, warnings: [...overlayWarnings, ...warnings, ...result.warnings] };
}
