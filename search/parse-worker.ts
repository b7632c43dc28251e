import { parentPort } from "node:worker_threads";
import { DocumentParseError, parseDocumentText } from "../openapi/load.js";
import { normalizeDocument } from "../openapi/normalize.js";
import { listOperations } from "../openapi/operations.js";
import type { ParseRequest, ParseResult } from "./document-parser.js";
import { graphqlDocument, graphqlKind } from "./graphql-document.js";

/** Parses and normalises a document off the main thread; answers with JSON text (cheaper to pass than objects). */
async function parse(request: ParseRequest): Promise<ParseResult> {
  try {
    const graphql = graphqlKind(request.text);
    const raw = graphql
      ? graphqlDocument(request.text, graphql, request.label)
      : parseDocumentText(request.text, request.format, request.label);
    const normalized = await normalizeDocument(raw, request.label);
    const { document, warnings } = normalized;
    const sourceVersion = graphql ? `graphql (${graphql === "sdl" ? "SDL" : "introspection"})` : normalized.sourceVersion;
    const operations = listOperations(document).length;
    if (operations > request.maxOperations) {
      return { ok: false, message: `${request.label}: ${operations} operations exceed this server's limit of ${request.maxOperations}` };
    }
    return { ok: true, json: JSON.stringify(document), sourceVersion, warnings };
  } catch (error) {
    const message =
      error instanceof DocumentParseError
        ? error.message
        : `${request.label}: cannot be read (${error instanceof Error ? error.name : typeof error})`;
    return { ok: false, message };
  }
}

// One worker serves parse after parse (starting one costs tens of milliseconds); the parent replaces it after a failure.
parentPort?.on("message", (request: ParseRequest) => {
  void parse(request).then((result) => parentPort?.postMessage(result));
});
