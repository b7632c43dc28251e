/** Reading a document: its JSON types, parsing YAML or JSON within budget, and normalising Swagger 2.0 and 3.1. */
export { checkDocumentShape, MAX_DOCUMENT_DEPTH } from "./document-shape.js";
export { type DocumentFormat, detectFormat, parseDocumentText, readDocumentFile, readDocumentSource } from "./load.js";
export { type NormalizedDocument, normalizeDocument } from "./normalize.js";
export { applyOverlays, type OverlaidDocument, type Overlay, readOverlay } from "./overlay.js";
export { DocumentParseError } from "./parse-error.js";
export {
  HTTP_METHODS,
  type HttpMethod,
  isJsonObject,
  isOpenApiDocument,
  type JsonObject,
  type JsonValue,
  type OpenApiDocument,
} from "./types.js";
export { eachObject } from "./walk.js";
