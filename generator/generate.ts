import type { SourceFileStructure } from "ts-morph";
import { readDocumentSource } from "../openapi/load.js";
import { normalizeDocument } from "../openapi/normalize.js";
import type { OpenApiDocument } from "../openapi/types.js";
import { GENERATED_HEADER } from "../templates/header.js";
import { type RegistryAuth, registryModule } from "../templates/registry.js";
import { serverEntryModule } from "../templates/server-entry.js";
import { toolModule, toolModuleNames } from "../templates/tool-module.js";
import { buildTools } from "./build-tools.js";
import type { GeneratorConfig } from "./config.js";
import { printStructures } from "./emit.js";
import { formatTypeScript } from "./format.js";
import { operationTypes } from "./operation-types.js";
import { pruneDocument } from "./prune.js";
import { securitySchemes } from "./security.js";
import { selectOperations } from "./select.js";
import { upstreamDefaults } from "./servers.js";
import type { ToolModel } from "./tool-model.js";

/** The generated tree, by path relative to the output directory, plus what the run noticed. */
export interface GenerationResult {
  files: Map<string, string>;
  tools: ToolModel[];
  warnings: string[];
}

const TYPES_FILE = "api-types.ts";

/** Runs the pipeline in memory: select → tool model → prune → types → structures → prettier. */
export async function generateFromDocument(
  document: OpenApiDocument,
  config: GeneratorConfig,
  documentUrl?: string,
): Promise<GenerationResult> {
  const entries = selectOperations(document, config);
  const tools = buildTools(document, entries, config);
  const types = await operationTypes(pruneDocument(document, entries));
  const structures = new Map<string, SourceFileStructure>();
  for (const tool of tools) structures.set(`${toolModuleNames(tool).file}.ts`, toolModule(tool, "../api-types.js"));
  const { name, version = "0.1.0", title, instructions } = config.server;
  const identity = { name, version, ...(title ? { title } : {}), ...(instructions ? { instructions } : {}) };
  structures.set(
    "index.ts",
    registryModule(tools, identity, upstreamDefaults(document, config.baseUrl, documentUrl), registryAuth(document, tools, config)),
  );
  structures.set("server.ts", serverEntryModule());
  const files = new Map<string, string>();
  files.set(TYPES_FILE, await formatTypeScript(`${GENERATED_HEADER}${types}`));
  for (const [path, text] of printStructures(structures)) files.set(path, await formatTypeScript(text));
  return { files, tools, warnings: tools.flatMap((tool) => tool.warnings) };
}

/** The schemes the selected tools name (in document order) and the configured passthrough. */
function registryAuth(document: OpenApiDocument, tools: readonly ToolModel[], config: GeneratorConfig): RegistryAuth {
  const used = new Set(tools.flatMap((tool) => (tool.security ?? []).flatMap((requirement) => Object.keys(requirement))));
  const schemes = Object.fromEntries(Object.entries(securitySchemes(document)).filter(([name]) => used.has(name)));
  const passthrough = config.auth?.passthrough;
  return { schemes, passthrough: { authorization: passthrough?.authorization ?? true, headers: passthrough?.headers ?? [] } };
}

/** Reads (from a path or an http(s) URL), normalises and generates from a document. */
export async function generateFromFile(specPath: string, config: GeneratorConfig): Promise<GenerationResult> {
  const { document: raw, url } = await readDocumentSource(specPath);
  const { document, warnings } = await normalizeDocument(raw, specPath);
  const result = await generateFromDocument(document, config, url);
  return { ...result, warnings: [...warnings, ...result.warnings] };
}
