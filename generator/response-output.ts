import type { HttpBinding } from "oapi-mcp-gen-runtime";
import type { OperationEntry } from "../openapi/operations.js";
import { derefObject } from "../openapi/refs.js";
import { isJsonObject, type JsonObject, type OpenApiDocument } from "../openapi/types.js";
import { SchemaConverter } from "./json-schema.js";
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
  description: "A summary of the binary response: its media type, size and SHA-256 digest.",
  properties: { contentType: { type: "string" }, size: { type: "integer" }, sha256: { type: "string" } },
  required: ["contentType", "size", "sha256"],
};

/** The 200 (else first 2xx) response, always as an object-rooted output schema. */
export function outputOf(document: OpenApiDocument, entry: OperationEntry, where: string) {
  const responses = isJsonObject(entry.operation.responses) ? entry.operation.responses : {};
  const twoXx = Object.keys(responses)
    .filter((key) => /^2(\d\d|XX)$/i.test(key))
    .sort();
  const status = ["200", ...twoXx].find((key) => Object.hasOwn(responses, key));
  const response = status === undefined ? undefined : derefObject(document, responses[status]);
  const content = isJsonObject(response?.content) ? response.content : undefined;
  const chosen = preferredMediaType(content);
  const converter = new SchemaConverter(document, "response", where);
  const base = { ...(status ? { status } : {}), ...(chosen ? { mediaType: chosen.mediaType } : {}) };
  const media = chosen && content ? content[chosen.mediaType] : undefined;
  if (!chosen || (chosen.kind === "json" && (!isJsonObject(media) || media.schema === undefined))) {
    return { schema: structuredClone(EMPTY), binding: { ...base, kind: "empty", wrapped: false } as ResponseBinding, warnings: [] };
  }
  if (chosen.kind === "text")
    return { schema: structuredClone(TEXT), binding: { ...base, kind: "text", wrapped: true } as ResponseBinding, warnings: [] };
  if (chosen.kind !== "json")
    return { schema: structuredClone(BINARY), binding: { ...base, kind: "binary", wrapped: false } as ResponseBinding, warnings: [] };
  const rawSchema = (media as JsonObject).schema;
  const root = converter.convertRoot(rawSchema);
  // The SDK client's zod records refuse an object with an own `constructor` key, so such a payload travels wrapped.
  const hasConstructor = isJsonObject(root.properties) && Object.hasOwn(root.properties, "constructor");
  const isObject = isObjectSchema(document, rawSchema) && !hasConstructor;
  // Every value an object-like root admits is an object, so saying so at the root changes nothing and satisfies clients.
  const schema: JsonObject = isObject
    ? { ...root, type: "object" }
    : { type: "object", properties: { result: root }, required: ["result"] };
  const defs = converter.defsObject();
  if (defs) schema.$defs = defs;
  return { schema, binding: { ...base, kind: "json", wrapped: !isObject } as ResponseBinding, warnings: converter.warnings };
}

/** True when every value the schema admits is a JSON object. */
function isObjectSchema(document: OpenApiDocument, node: unknown): boolean {
  const schema = derefObject(document, node as JsonObject);
  if (!schema) return false;
  if (schema.type === "object") return schema.nullable !== true;
  if (schema.type !== undefined) return false;
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const list = schema[keyword];
    if (Array.isArray(list)) return list.length > 0 && list.every((branch) => isObjectSchema(document, branch));
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.some((branch) => isObjectSchema(document, branch));
  return isJsonObject(schema.properties);
}
