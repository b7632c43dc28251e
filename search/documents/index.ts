/** Loading and parsing documents (OpenAPI and GraphQL), the store they persist in, and finding things in a loaded API. */
export { DocumentParser, parseTimeFor } from "./document-parser.js";
export { bracketDepth } from "./graphql-document.js";
export { type GraphqlField, graphqlField } from "./graphql-field.js";
export { readSource, type SourcePolicy, type SourceText } from "./load-source.js";
export { type ApiSummary, LoadedApi } from "./loaded-api.js";
export { findOperation, findPath, findSchema, findTag } from "./lookup.js";
export { readApi } from "./read-api.js";
export { type ApiStore, DirectoryStore, defaultStorePath, type StoredApi } from "./store.js";
export { loadFailure, ToolFailure } from "./tool-failure.js";
