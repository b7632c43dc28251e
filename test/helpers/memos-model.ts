import { readConfigFile } from "../../generator/config/index.js";
import { normalizeDocument, readDocumentFile } from "../../openapi/document/index.js";
import { buildApiModel } from "../../openapi/model/index.js";

export const MEMOS_SPEC = new URL("../../examples/memos/openapi.yaml", import.meta.url).pathname;
export const MEMOS_CONFIG = new URL("../../examples/memos/oapi-mcp.config.yaml", import.meta.url).pathname;

/** The Memos document (normalised), its model and its committed config. */
export async function loadMemos() {
  const { document: raw } = await readDocumentFile(MEMOS_SPEC);
  const { document } = await normalizeDocument(raw);
  return { document, model: buildApiModel(document), config: await readConfigFile(MEMOS_CONFIG) };
}
