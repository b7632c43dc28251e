import { parentPort } from "node:worker_threads";
import {
  DocumentParseError,
  isJsonObject,
  normalizeDocument,
  type OpenApiDocument,
  parseDocumentText,
} from "../../openapi/document/index.js";
import { listOperations } from "../../openapi/model/index.js";
import { referenceWarnings } from "../../openapi/references/index.js";
import type { ParseRequest, ParseResult } from "./document-parser.js";
import { graphqlDocument, graphqlKind } from "./graphql-document.js";

/** Parses and normalises a document off the main thread; answers with the document itself (structured clone). */
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
      return {
        ok: false,
        message: `${request.label}: ${operations} operations exceed this server's limit of ${request.maxOperations} (its operator sets it with --max-operations)`,
      };
    }
    // What the references of the whole document point at is told now; then what no tool shows is left here.
    const shown = withoutExampleComponents(document);
    // Written here, where a document of tens of megabytes costs no other request its time; its length is what the
    // load built, for the catalogue's budget.
    const json = JSON.stringify(shown);
    return {
      ok: true,
      document: shown,
      sourceVersion,
      warnings: [...warnings, ...referenceWarnings(document)],
      builtBytes: json.length,
      ...(request.json ? { json } : {}),
    };
  } catch (error) {
    const message =
      error instanceof DocumentParseError
        ? error.message
        : `${request.label}: cannot be read (${error instanceof Error ? error.name : typeof error})`;
    return { ok: false, message };
  }
}

/**
 * The document without `components.examples`: no search tool shows them (views keep their `$ref`s as written, and only
 * schema references are inlined), and in large documents they are a fifth of the text (GitHub's: 1.4 of 6 MB).
 */
function withoutExampleComponents(document: OpenApiDocument): OpenApiDocument {
  const { components } = document;
  if (!isJsonObject(components) || components.examples === undefined) return document;
  const { examples: _, ...rest } = components;
  return { ...document, components: rest };
}

// One worker serves parse after parse (starting one costs tens of milliseconds); the parent replaces it after a failure.
parentPort?.on("message", (request: ParseRequest) => {
  void parse(request).then((result) => {
    try {
      parentPort?.postMessage(result);
    } catch (error) {
      // A document the structured clone cannot copy (nested past its stack) is refused, never left unanswered.
      const reason =
        error instanceof RangeError
          ? "nested too deep to hand over"
          : `cannot be handed over (${error instanceof Error ? error.name : "unknown error"})`;
      parentPort?.postMessage({ ok: false, message: `${request.label}: ${reason}` } satisfies ParseResult);
    }
  });
});
