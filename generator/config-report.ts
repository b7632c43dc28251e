import { buildApiModel } from "../openapi/build-model.js";
import { bundleExternalRefs } from "../openapi/bundle.js";
import { readDocumentSource } from "../openapi/load.js";
import { normalizeDocument } from "../openapi/normalize.js";
import { isJsonObject, type JsonValue } from "../openapi/types.js";
import type { GeneratorConfig } from "./config.js";
import { type ConfigShapeError, SelectionError, UserError } from "./errors.js";
import { selectOperations } from "./select.js";

/**
 * Every problem of a config at once: the keys the schema refuses, and then the operationIds, tags and overrides that do
 * not fit the document (checked on what the config does say), so one run lists what to fix. A document that cannot be
 * read leaves the shape problems alone.
 */
export async function allConfigProblems(error: ConfigShapeError, spec: string, configPath: string): Promise<UserError> {
  const raw = error.value;
  if (!isJsonObject(raw as JsonValue)) return error;
  let selection: readonly string[] = [];
  try {
    const { document: read, url } = await readDocumentSource(spec);
    const { document } = await normalizeDocument(await bundleExternalRefs(read, url ?? spec, { outsideFolder: false }), spec);
    selectOperations(buildApiModel(document), lenient(raw as Record<string, unknown>));
  } catch (problem) {
    if (problem instanceof SelectionError) selection = problem.problems.filter((line) => !line.startsWith("select: give"));
  }
  return new UserError([...error.problems, ...selection.map((line) => `${configPath}: ${line}`)]);
}

/** The parts of a config the selection reads, each kept only when it has the shape the selection expects. */
function lenient(raw: Record<string, unknown>): GeneratorConfig {
  const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item) => typeof item === "string") : undefined);
  const filter = (value: unknown) => {
    if (!isJsonObject(value as JsonValue)) return undefined;
    const given = value as Record<string, unknown>;
    return {
      ...(given.all === true ? { all: true as const } : {}),
      ...(strings(given.tags) ? { tags: strings(given.tags) } : {}),
      ...(strings(given.operationIds) ? { operationIds: strings(given.operationIds) } : {}),
    };
  };
  const select = filter(raw.select);
  const exclude = isJsonObject(raw.select as JsonValue) ? filter((raw.select as Record<string, unknown>).exclude) : undefined;
  return {
    server: { name: "config" },
    ...(strings(raw.operations) ? { operations: strings(raw.operations) } : {}),
    // Tags and ids alone: path and method patterns are the schema's to check.
    ...(select ? { select: { ...select, all: true, ...(exclude ? { exclude } : {}) } } : {}),
    ...(isJsonObject(raw.overrides as JsonValue)
      ? { overrides: Object.fromEntries(Object.keys(raw.overrides as object).map((id) => [id, {}])) }
      : {}),
  } as GeneratorConfig;
}
