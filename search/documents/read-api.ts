import { buildApiModelInSlices } from "../../openapi/model/index.js";
import type { DocumentParser } from "./document-parser.js";
import type { SourceText } from "./load-source.js";
import { LoadedApi } from "./loaded-api.js";

/**
 * Parses a document's text (in the worker) and reads its model a slice at a time, so a document of thousands of
 * operations does not hold up other requests; with `json`, the normalised document's JSON text too.
 */
export async function readApi(
  parser: DocumentParser,
  name: string,
  source: Pick<SourceText, "text" | "format" | "origin">,
  loadedAt: string,
  options: { json?: boolean } = {},
): Promise<{ api: LoadedApi; builtBytes: number; json?: string }> {
  const parsed = await parser.parse(source.text, source.format, `'${name}'`, options);
  const model = await buildApiModelInSlices(parsed.document);
  const api = new LoadedApi(name, parsed.document, parsed.sourceVersion, source.origin, loadedAt, parsed.warnings, model);
  const { builtBytes } = parsed;
  return parsed.json === undefined ? { api, builtBytes } : { api, builtBytes, json: parsed.json };
}
