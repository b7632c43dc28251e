import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { SourceFileStructure } from "ts-morph";
import { readDocumentSource } from "../openapi/load.js";
import { normalizeDocument } from "../openapi/normalize.js";
import type { OpenApiDocument } from "../openapi/types.js";
import { isJsonObject } from "../openapi/types.js";
import { ciWorkflowText, deployTsconfigText, dockerfileText } from "../templates/deploy.js";
import { GENERATED_HEADER } from "../templates/header.js";
import { readmeText } from "../templates/readme.js";
import { type RegistryAuth, registryModule } from "../templates/registry.js";
import { schemasModule } from "../templates/schemas-module.js";
import { serverEntryModule } from "../templates/server-entry.js";
import { toolModule, toolModuleNames } from "../templates/tool-module.js";
import { buildTools } from "./build-tools.js";
import type { GeneratorConfig } from "./config.js";
import { FORMAT_FINGERPRINT, formatDocument, formatTypeScript } from "./format.js";
import { operationTypes } from "./operation-types.js";
import { pruneDocument } from "./prune.js";
import { renderModules } from "./render.js";
import type { RenderCache } from "./render-cache.js";
import { securitySchemes } from "./security.js";
import { selectOperations } from "./select.js";
import { upstreamDefaults } from "./servers.js";
import { shareSchemas } from "./shared-schemas.js";
import type { ToolModel } from "./tool-model.js";
import { checkBudget, type ToolsListSize, toolsListSize } from "./tools-list.js";

/** The generated tree, by path relative to the output directory, plus what the run noticed. */
export interface GenerationResult {
  files: Map<string, string>;
  tools: ToolModel[];
  warnings: string[];
  toolsList: ToolsListSize;
}

const TYPES_FILE = "api-types.ts";
const openapiTsVersion = (createRequire(import.meta.url)("openapi-typescript/package.json") as { version: string }).version;
const TYPES_FINGERPRINT = `openapi-typescript ${openapiTsVersion} ${FORMAT_FINGERPRINT}`;

/** Runs the pipeline in memory: select → tool model → prune → types → structures → prettier. */
export async function generateFromDocument(
  document: OpenApiDocument,
  config: GeneratorConfig,
  documentUrl?: string,
  cache?: RenderCache,
): Promise<GenerationResult> {
  const entries = selectOperations(document, config);
  const tools = buildTools(document, entries, config);
  const toolsList = toolsListSize(tools);
  checkBudget(toolsList, config.budget);
  const pruned = pruneDocument(document, entries);
  const structures = new Map<string, SourceFileStructure>();
  const shared = shareSchemas(tools);
  for (const tool of tools) structures.set(`${toolModuleNames(tool).file}.ts`, toolModule(tool, "../api-types.js", shared));
  if (shared.constants.length > 0) structures.set("schemas.ts", schemasModule(shared));
  const { name, version = "0.1.0", title, instructions } = config.server;
  const identity = { name, version, ...(title ? { title } : {}), ...(instructions ? { instructions } : {}) };
  const upstream = upstreamDefaults(document, config.baseUrl, documentUrl);
  const auth = registryAuth(document, tools, config);
  structures.set("index.ts", registryModule(tools, identity, upstream, auth));
  structures.set("server.ts", serverEntryModule());
  const files = new Map<string, string>();
  // The types are rendered on this thread while worker threads render the tool modules.
  const [types, modules] = await Promise.all([typesModule(pruned, cache), renderModules(structures, cache)]);
  files.set(TYPES_FILE, types);
  for (const [path, text] of modules) files.set(path, text);
  const info = isJsonObject(document.info) ? document.info : {};
  const facts = {
    name,
    version,
    ...(title ? { title } : {}),
    document: { title: typeof info.title === "string" ? info.title : "", version: typeof info.version === "string" ? info.version : "" },
    tools,
    upstream,
    schemes: auth.schemes,
    passthrough: auth.passthrough,
  };
  files.set("README.md", await formatDocument(readmeText(facts), "markdown"));
  files.set("deploy/Dockerfile", dockerfileText(name));
  files.set("deploy/tsconfig.json", deployTsconfigText());
  files.set("deploy/oapi-mcp-check.yml", await formatDocument(ciWorkflowText(), "yaml"));
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { files: sorted, tools, warnings: tools.flatMap((tool) => tool.warnings), toolsList };
}

/** The schemes the selected tools name (in document order) and the configured passthrough. */
function registryAuth(document: OpenApiDocument, tools: readonly ToolModel[], config: GeneratorConfig): RegistryAuth {
  const used = new Set(tools.flatMap((tool) => (tool.security ?? []).flatMap((requirement) => Object.keys(requirement))));
  const schemes = Object.fromEntries(Object.entries(securitySchemes(document)).filter(([name]) => used.has(name)));
  const passthrough = config.auth?.passthrough;
  return { schemes, passthrough: { authorization: passthrough?.authorization ?? true, headers: passthrough?.headers ?? [] } };
}

/** The openapi-typescript module of the pruned document, formatted; cached by content and tool versions. */
async function typesModule(pruned: OpenApiDocument, cache?: RenderCache): Promise<string> {
  const key = createHash("sha256")
    .update(`${TYPES_FINGERPRINT}\u0000${JSON.stringify(pruned)}`)
    .digest("hex");
  const cached = cache?.get(key);
  if (cached !== undefined) return cached;
  const text = await formatTypeScript(`${GENERATED_HEADER}${await operationTypes(pruned)}`);
  cache?.set(key, text);
  return text;
}

/** Reads (from a path or an http(s) URL), normalises and generates from a document. */
export async function generateFromFile(specPath: string, config: GeneratorConfig, cache?: RenderCache): Promise<GenerationResult> {
  const { document: raw, url } = await readDocumentSource(specPath);
  const { document, warnings } = await normalizeDocument(raw, specPath);
  const result = await generateFromDocument(document, config, url, cache);
  return { ...result, warnings: [...warnings, ...result.warnings] };
}
