import type { HttpBinding } from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../../openapi/document/index.js";
import type { OperationModel, SchemaCatalog } from "../../openapi/model/index.js";
import { type DefinitionMemo, SchemaConverter } from "../schema/json-schema.js";
import { preferredMediaType } from "./media-types.js";

/** What a tool's structured result is made from (the runtime's `http.response`). */
export type ResponseKind = HttpBinding["response"];

/** The response a tool's structured result comes from. */
export interface ResponseBinding {
  /** The status key in the document (`200`, `201`, `2XX`), if one is documented. */
  status?: string;
  /** The media type of that response, if it has one. */
  mediaType?: string;
  kind: ResponseKind;
  /** The payload is wrapped as `{ result }` because its schema is not an object. */
  wrapped: boolean;
}

const EMPTY: JsonObject = { type: "object", properties: { ok: { type: "boolean" } } };
const TEXT: JsonObject = {
  type: "object",
  properties: { result: { type: "string" }, truncated: { type: "boolean" } },
  required: ["result"],
};
const BINARY: JsonObject = {
  type: "object",
  description: "A summary of the binary response: its media type, size and SHA-256 digest (and its text, when the API answered with text).",
  properties: { contentType: { type: "string" }, size: { type: "integer" }, sha256: { type: "string" }, text: { type: "string" } },
  required: ["contentType", "size", "sha256"],
};

/** The output schema of a tool, how its result is made, and what converting the schema noticed. */
export interface ToolOutput {
  schema: JsonObject;
  binding: ResponseBinding;
  warnings: string[];
}

/** The 200 (else first 2xx) response, always as an object-rooted output schema. */
export function outputOf(schemas: SchemaCatalog, operation: OperationModel, where: string, memo?: DefinitionMemo): ToolOutput {
  const twoXx = operation.responses
    .map((response) => response.status)
    .filter((key) => /^2(\d\d|XX)$/i.test(key))
    .sort();
  const status = ["200", ...twoXx].find((key) => operation.responses.some((response) => response.status === key));
  const response = operation.responses.find((candidate) => candidate.status === status);
  const chosen = preferredMediaType(response?.content ?? []);
  const base = { ...(status ? { status } : {}), ...(chosen ? { mediaType: chosen.media.mediaType } : {}) };
  const fixed = (kind: ResponseKind, schema: JsonObject): ToolOutput => ({
    schema: structuredClone(schema),
    binding: { ...base, kind, wrapped: kind === "text" },
    warnings: [],
  });
  if (!chosen || (chosen.kind === "json" && chosen.media.schema === undefined)) return fixed("empty", EMPTY);
  if (chosen.kind === "text") return fixed("text", TEXT);
  if (chosen.kind !== "json") return fixed("binary", BINARY);
  const converter = new SchemaConverter(schemas, "response", where, memo);
  const root = converter.convertRoot(chosen.media.schema);
  // The SDK client's zod records refuse an object with an own `constructor` key, so such a payload travels wrapped.
  const properties = root.properties;
  const hasConstructor = typeof properties === "object" && properties !== null && Object.hasOwn(properties, "constructor");
  const isObject = schemas.admitsOnlyObjects(chosen.media.schema) && !hasConstructor;
  // Every value an object-like root admits is an object, so saying so at the root changes nothing and satisfies clients.
  const schema: JsonObject = isObject
    ? { ...root, type: "object" }
    : { type: "object", properties: { result: root }, required: ["result"] };
  const defs = converter.defsObject();
  if (defs) schema.$defs = defs;
  return { schema, binding: { ...base, kind: "json", wrapped: !isObject }, warnings: converter.warnings };
}
