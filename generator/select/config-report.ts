import { isRecord } from "oapi-mcp-gen-runtime";
import { normalizeDocument, readDocumentSource } from "../../openapi/document/index.js";
import { buildApiModel } from "../../openapi/model/index.js";
import { bundleExternalRefs } from "../../openapi/references/index.js";
import { type ConfigShapeError, SelectionError, UserError } from "../base/errors.js";
import type { GeneratorConfig, OperationFilter } from "../config/config.js";
import { selectOperations } from "./select.js";

/**
 * Every problem of a config at once: the keys the schema refuses, and then the operationIds, tags and overrides that do
 * not fit the document (checked on what the config does say), so one run lists what to fix. A document that cannot be
 * read leaves the shape problems alone.
 */
export async function allConfigProblems(error: ConfigShapeError, spec: string, configPath: string): Promise<UserError> {
  const raw = error.value;
  if (!isRecord(raw)) return error;
  let selection: readonly string[] = [];
  try {
    const { document: read, url } = await readDocumentSource(spec);
    const { document } = await normalizeDocument(await bundleExternalRefs(read, url ?? spec, { outsideFolder: false }), spec);
    selectOperations(buildApiModel(document), lenient(raw));
  } catch (problem) {
    if (problem instanceof SelectionError) selection = problem.problems.filter((line) => !line.startsWith("select: give"));
  }
  return new UserError([...error.problems, ...selection.map((line) => `${configPath}: ${line}`)]);
}

/** The strings of a list, or undefined when it is none. */
function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : undefined;
}

/** The tags and operationIds of a `select` or `exclude` filter, as far as they have the expected shape. */
function filter(value: unknown): OperationFilter | undefined {
  if (!isRecord(value)) return undefined;
  const tags = strings(value.tags);
  const operationIds = strings(value.operationIds);
  return { ...(tags ? { tags } : {}), ...(operationIds ? { operationIds } : {}) };
}

/**
 * The parts of a config the selection reads, each kept only when it has the shape the selection expects. A `select`
 * is taken as `all` (path and method patterns are the schema's to check), so no override is called unselected wrongly.
 */
function lenient(raw: Record<string, unknown>): GeneratorConfig {
  const operations = strings(raw.operations);
  const select = filter(raw.select);
  const exclude = isRecord(raw.select) ? filter(raw.select.exclude) : undefined;
  const overrides = isRecord(raw.overrides) ? Object.fromEntries(Object.keys(raw.overrides).map((id) => [id, {}])) : undefined;
  return {
    server: { name: "config" },
    ...(operations ? { operations } : {}),
    ...(select ? { select: { ...select, all: true, ...(exclude ? { exclude } : {}) } } : {}),
    ...(overrides ? { overrides } : {}),
  };
}
