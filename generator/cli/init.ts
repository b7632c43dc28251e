import { writeFile } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { pushTo } from "oapi-mcp-gen-runtime";
import { neededOnEveryCall } from "oapi-mcp-gen-runtime/discovery";
import {
  applyOverlays,
  isJsonObject,
  type JsonObject,
  normalizeDocument,
  readDocumentSource,
  readOverlay,
} from "../../openapi/document/index.js";
import { type ApiModel, buildApiModel, type OperationModel } from "../../openapi/model/index.js";
import { bundleExternalRefs } from "../../openapi/references/index.js";
import { shellWord } from "../../templates/deploy.js";
import { oneLine } from "../../templates/literal.js";
import { toolDefinition } from "../../templates/tool-module.js";
import { UserError } from "../base/errors.js";
import { resolveConfig } from "../config/config.js";
import { hiddenByDocument, withDocumentMarks } from "../config/document-marks.js";
import { defaultConfigFor } from "../generate.js";
import { buildTools } from "../model/build-tools.js";
import type { ToolModel } from "../model/tool-model.js";
import { toolsListSize } from "../model/tools-list.js";
import { pathKind } from "../output/output-files.js";
import { firstSelection } from "../select/first-selection.js";

/** The default selection stops at whichever comes first. */
const DEFAULT_MAX_TOOLS = 40;
const DEFAULT_MAX_TOKENS = 25_000;

/** The heading of the operations a document gives no tag. */
const UNTAGGED = "(untagged)";

/** One operation as the config lists it. */
interface Listed {
  entry: OperationModel;
  tag: string;
  tool?: string;
  tokens?: number;
  /** The names of its arguments, a body's properties included: what the first selection counts as mentions. */
  arguments?: string[];
  problem?: string;
  selected: boolean;
}

/** The config file the generator reads from the working folder when none is named (`--config`). */
const DEFAULT_CONFIG_NAME = "oapi-mcp.config.yaml";

/**
 * Writes a commented config that lists every operation by tag with the tool name it would get and its share of
 * `tools/list`; read-only operations are selected until the default budget, the rest stay commented out.
 */
export async function initConfig(spec: string, configPath: string, force: boolean, overlayFiles: readonly string[] = []): Promise<string> {
  const { document: parsed, url } = await readDocumentSource(spec);
  const overlays = await Promise.all(overlayFiles.map(readOverlay));
  const { document: read, unmatched } = await applyOverlays(parsed, overlays);
  const raw = await bundleExternalRefs(read, url ?? spec, { outsideFolder: false });
  if (pathKind(configPath) !== "none" && !force)
    throw new UserError(`${configPath}: already exists; edit it, or pass --force to replace it`);
  const { document } = await normalizeDocument(raw, spec);
  const model = buildApiModel(document);
  const listed = listOperationsWithTools(model);
  if (listed.length === 0) throw new UserError(`${spec}: the document has no operations under "paths"`);
  // What the document hides (x-mcp) is listed, never selected; the rest is chosen as if it were not hidden.
  const first = firstSelection(listed, { tools: DEFAULT_MAX_TOOLS, tokens: DEFAULT_MAX_TOKENS });
  const selected = first.selected.filter((item) => !hiddenByDocument(item.entry));
  const { resources } = first;
  for (const item of selected) item.selected = true;
  const tokens = selected.reduce((sum, item) => sum + (item.tokens ?? 0), 0);
  // The config names the overlays relative to itself, so generating from it applies them again.
  const overlaysFromConfig = overlayFiles.map((file) =>
    relative(dirname(resolve(configPath)), resolve(file))
      .split(sep)
      .join("/"),
  );
  await writeFile(configPath, configText(model, spec, configPath, listed, overlaysFromConfig));
  const which =
    resources.length > 0 ? `: the core operations of ${resources.slice(0, 6).join(", ")}${resources.length > 6 ? ", …" : ""}` : "";
  // The generator reads oapi-mcp.config.yaml from the working folder by itself; any other config must be named.
  const config = resolve(configPath) === resolve(DEFAULT_CONFIG_NAME) ? "" : ` --config ${shellWord(configPath)}`;
  const next = `npx oapi-mcp-gen ${shellWord(spec)}${config} --out generated`;
  const hidden = listed.filter((item) => hiddenByDocument(item.entry)).map((item) => item.entry.operationId ?? item.entry.path);
  const shown = hidden.length > 5 ? `${hidden.slice(0, 5).join(", ")} and ${hidden.length - 5} more` : hidden.join(", ");
  const note = hidden.length > 0 ? `; ${hidden.length} hidden by x-mcp (${shown}), listed but not selected` : "";
  const warnings = unmatched.map((action) => `warning: overlay ${action} matches nothing in the document\n`).join("");
  return `wrote ${configPath}: ${listed.length} operations listed, ${selected.length} selected${which} (about ${tokens} tokens of tools/list)${note}; edit it, then run \`${next}\`\n${warnings}`;
}

/** Every operation with its tag, tool name and size (or why it cannot become a tool as it is), built in one pass. */
function listOperationsWithTools(model: ApiModel): Listed[] {
  // Tool names as the document's x-mcp marks give them.
  const { config } = withDocumentMarks(resolveConfig(defaultConfigFor(model)), model.operations);
  const items = model.operations.map((entry): Listed => ({ entry, tag: entry.tags[0] ?? UNTAGGED, selected: false }));
  let tools: (ToolModel | undefined)[];
  try {
    tools = buildTools(model, model.operations, config);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    // Some operation cannot be a tool as it is: each is built alone, to say which and why.
    tools = items.map((item) => {
      try {
        return buildTools(model, [item.entry], config)[0];
      } catch (problem) {
        if (!(problem instanceof UserError)) throw problem;
        item.problem = problem.problems[0] ?? problem.message;
        return undefined;
      }
    });
  }
  items.forEach((item, index) => {
    const tool = tools[index];
    if (tool === undefined) return;
    item.tool = tool.name;
    item.tokens = toolsListSize([toolDefinition(tool)]).tokens;
    item.arguments = argumentNames(tool.inputSchema);
  });
  return items;
}

/** The names of a tool's arguments and of its body's properties. */
function argumentNames(schema: JsonObject): string[] {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const body = properties.body;
  const inner = isJsonObject(body) && isJsonObject(body.properties) ? Object.keys(body.properties) : [];
  return [...Object.keys(properties).filter((name) => name !== "body"), ...inner];
}

/** The YAML text: header, server, and the operations grouped by tag in document order. */
function configText(model: ApiModel, spec: string, configPath: string, listed: Listed[], overlays: readonly string[]): string {
  const { server } = defaultConfigFor(model);
  const title = model.info.title.trim();
  const schema = relative(dirname(resolve(configPath)), fileURLToPath(new URL("../../../generator/config.schema.json", import.meta.url)))
    .split(sep)
    .join("/");
  const lines = [
    `# yaml-language-server: $schema=${schema}`,
    `# oapi-mcp-gen config for ${comment(title ? `"${title}" (${spec})` : spec)}, written by \`oapi-mcp-gen init\`.`,
    "# Each operation becomes one MCP tool. Uncomment a line to expose it; each says the tool's name, its route and",
    `# its share of tools/list in tokens. Selected: the list, read, create and update operations of the most central`,
    `# resources, up to ${DEFAULT_MAX_TOOLS} tools or ${DEFAULT_MAX_TOKENS} tokens (models choose best among few tools; nothing that deletes or`,
    "# cancels, nothing deprecated, nothing for administrators or tests).",
    "# Or select by rule: `select: { all: true }` for every operation, or by tags, paths and methods.",
    "# Overrides, path prefixes, auth and budgets: see the README.",
    "server:",
    `  name: ${server.name}`,
    "  version: 0.1.0",
    ...(server.title ? [`  title: ${JSON.stringify(server.title)}`] : []),
    "",
    ...(overlays.length > 0 ? ["overlays:", ...overlays.map((file) => `  - ${JSON.stringify(file)}`), ""] : []),
    "operations:",
  ];
  const byTag = new Map<string, Listed[]>();
  for (const item of listed) pushTo(byTag, item.tag, item);
  for (const [tag, items] of byTag) {
    // Named as a tag, quoted: a tag called `hidden` is no x-mcp mark.
    const heading = tag === UNTAGGED ? "no tag" : `tag ${comment(JSON.stringify(tag))}`;
    lines.push(`  # ${heading} (${items.length} operation${items.length === 1 ? "" : "s"})`);
    for (const item of items) lines.push(operationLine(item));
  }
  if (!listed.some((item) => item.selected)) lines.push("  []  # nothing selected yet: uncomment operations above");
  lines.push(...credentialParameterLines(listed, server.name));
  return `${lines.join("\n")}\n`;
}

/** Parameter names that carry a credential: the server sends them, never the model. */
const CREDENTIAL_PARAMETER =
  /^(?:(?:access|auth|api|bearer|bot|user|app|session)[_-]?token|token|api[_-]?key|apikey|x[_-]api[_-]key|key|client[_-]secret|secret)$/i;

/** How many operations declare a parameter, and how many of them are selected. */
interface Declared {
  declared: number;
  selected: number;
  why: "credential" | "every call";
}

/**
 * The parameters the server should supply: those the document declares in query, header or cookie under a
 * credential's name (Slack's `token`), and those nearly every operation requires, in any place (Twilio's `AccountSid`,
 * Xero's `xero-tenant-id`): an account or tenant the operator knows and the model does not.
 */
function serverSuppliedParameters(listed: readonly Listed[]): Map<string, Declared> {
  const found = new Map<string, Declared>();
  const count = (name: string, selected: boolean, why: Declared["why"]) => {
    const known = found.get(name) ?? { declared: 0, selected: 0, why };
    found.set(name, { declared: known.declared + 1, selected: known.selected + (selected ? 1 : 0), why: known.why });
  };
  for (const { entry, selected } of listed)
    for (const parameter of entry.parameters)
      if (parameter.in !== "path" && CREDENTIAL_PARAMETER.test(parameter.name)) count(parameter.name, selected, "credential");
  const operations = listed.filter((item) => item.entry.operationId !== undefined);
  const required = new Map<string, { declared: number; selected: number }>();
  for (const { entry, selected } of operations)
    for (const name of new Set(
      entry.parameters.filter((parameter) => parameter.required && !parameter.synthesized).map((parameter) => parameter.name),
    )) {
      const known = required.get(name) ?? { declared: 0, selected: 0 };
      required.set(name, { declared: known.declared + 1, selected: known.selected + (selected ? 1 : 0) });
    }
  for (const [name, counted] of required)
    if (!found.has(name) && neededOnEveryCall(counted.declared, operations.length)) found.set(name, { ...counted, why: "every call" });
  return found;
}

/**
 * A `parameters` block for the parameters the server should supply (see `serverSuppliedParameters`): each read from an
 * environment variable, so no tool asks the model for it. A name only unselected operations declare is shown commented
 * out, so the config asks the operator for no setting its selection never uses.
 */
function credentialParameterLines(listed: readonly Listed[], serverName: string): string[] {
  const counts = serverSuppliedParameters(listed);
  if (counts.size === 0) return [];
  const prefix = serverName
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  const used = [...counts].filter(([, count]) => count.selected > 0);
  const lines = [
    "",
    "# Parameters the server sends from its environment, so no tool asks the model for them: those that carry a",
    "# credential, and those nearly every operation needs (an account or tenant id). `value: …` fixes one, `hide: true`",
    "# drops an optional one; per operation under overrides.<id>.parameters.",
    used.length > 0 ? "parameters:" : "# parameters:  (no selected operation declares one; uncomment with the operations that do)",
  ];
  for (const [name, { declared, selected, why }] of counts) {
    const variable = `${prefix ? `${prefix}_` : ""}${name.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}`.replace(/^(?=[0-9])/, "_");
    const operations = `${why === "every call" ? "required by" : "declared by"} ${declared} operation${declared === 1 ? "" : "s"}`;
    if (selected > 0) lines.push(`  ${JSON.stringify(name)}:  # ${operations}, ${selected} selected`, `    env: ${variable}`);
    else lines.push(`  # ${JSON.stringify(name)}:  # ${operations}, none selected`, `  #   env: ${variable}`);
  }
  return lines;
}

/** One operation: `- id  # tool, METHOD /path, ~N tokens`, commented out unless selected. */
function operationLine(item: Listed): string {
  const route = `${item.entry.method.toUpperCase()} ${comment(item.entry.path)}`;
  if (!item.entry.operationId) return `  # (no operationId) ${route}: select it with select.paths`;
  const facts = item.problem
    ? `${route}, cannot be a tool as it is: ${comment(item.problem)}`
    : `${item.tool}, ${route}, ~${item.tokens} tokens${item.entry.method === "delete" ? " (destructive)" : ""}${hiddenByDocument(item.entry) ? " (hidden by the document's x-mcp)" : ""}`;
  const id = /^[A-Za-z0-9_.-]+$/.test(item.entry.operationId) ? item.entry.operationId : JSON.stringify(item.entry.operationId);
  return `  ${item.selected ? "" : "# "}- ${id}  # ${facts}`;
}

/** Document text inside a YAML comment: one line, no control characters, bounded. */
function comment(text: string): string {
  const clean = oneLine(text);
  return clean.length > 120 ? `${clean.slice(0, 119)}…` : clean;
}
