import { createRequire } from "node:module";
import { withEscapedMarks } from "oapi-mcp-gen-runtime";
import type { GlobalContext, OpenAPI3 } from "openapi-typescript";
import type { OpenApiDocument } from "../../openapi/document/index.js";
import { typingInput } from "../../openapi/typing/index.js";
import { UserError } from "../base/errors.js";

/**
 * TypeScript declarations (`paths`, `components`, `operations`) for a document, from openapi-typescript. `parsedFrom`:
 * the JSON text the document was parsed from for this call alone, so it may be changed (and its text is read).
 */
export async function operationTypes(document: OpenApiDocument, parsedFrom?: string): Promise<string> {
  const input = typingInput(document, parsedFrom);
  if (input.externalRefs.length > 0) {
    const first = input.externalRefs.slice(0, 3).join(", ");
    throw new UserError(
      `external $ref ${first} cannot be followed; bundle the document into one file first (for example with \`redocly bundle\`)`,
    );
  }
  const lib = loadTypingFunctions();
  try {
    const schema = input.document;
    if (!isTypeable(schema)) throw new Error("not an OpenAPI 3 document");
    // Document text in comments and names: never an invisible mark that makes the code read otherwise than it compiles.
    return withEscapedMarks(withLenientRequired(input.restore(lib.astToString(lib.transformSchema(schema, typingContext(schema, lib))))));
  } catch (error) {
    // openapi-typescript rejects some documents (references it cannot resolve); that is the document's problem.
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
    throw new UserError(`openapi-typescript cannot type the selected operations: ${message.slice(0, 300)}`);
  }
}

/** The helper openapi-typescript writes for an `allOf` that makes inherited properties required. */
const WITH_REQUIRED = /type WithRequired<T, K extends keyof T> = T & \{\s*\[P in K\]-\?: T\[P\];?\s*\};/;

/**
 * openapi-typescript's `WithRequired<T, K extends keyof T>` fails to compile where `T` is an optional property (its
 * `undefined` leaves no keys) or lacks a name the schema requires (Plaid's errors, Twine's events: TS2344). This form
 * requires the same keys of the object and takes a name `T` does not declare as `unknown`, as the JSON Schema does.
 */
function withLenientRequired(text: string): string {
  return text.replace(
    WITH_REQUIRED,
    "type WithRequired<T, K extends PropertyKey> = NonNullable<T> & { [P in K]-?: P extends keyof NonNullable<T> ? NonNullable<T>[P] : unknown };",
  );
}

/** Whether openapi-typescript can type a document: a 3.x one (a Swagger 2.0 document is converted before it gets here). */
function isTypeable(document: OpenApiDocument): document is OpenApiDocument & OpenAPI3 {
  return document.openapi.startsWith("3.");
}

/** openapi-typescript's resolver, each reference resolved once: the types of a large API name the same few hundred often. */
function resolveOnce(schema: OpenAPI3, resolveRef: typeof import("openapi-typescript")["resolveRef"]): GlobalContext["resolve"] {
  const resolved = new Map<string, unknown>();
  return (($ref: string) => {
    if (!resolved.has($ref)) resolved.set($ref, resolveRef(schema, $ref, { silent: true }));
    return resolved.get($ref);
  }) as GlobalContext["resolve"];
}

/** The parts of openapi-typescript the types are made with. */
type TypingFunctions = Pick<typeof import("openapi-typescript"), "astToString" | "resolveRef" | "scanDiscriminators" | "transformSchema">;

let loaded: TypingFunctions | undefined;

/** openapi-typescript's functions, loaded once per thread (a side thread loads them before its first job). */
export function loadTypingFunctions(): TypingFunctions {
  loaded ??= typingFunctions();
  return loaded;
}

/**
 * openapi-typescript's functions, loaded on demand (a run whose types come from the render cache never needs them) and
 * required: its CommonJS build loads TypeScript without Node's ESM loader scanning TypeScript's source first. Taken from
 * the modules that define them, which skips loading Redocly's whole toolkit for the lint-and-bundle pass not run here
 * (a quarter of a second); from the package's entry point if its files are laid out otherwise.
 */
function typingFunctions(): TypingFunctions {
  const require = createRequire(import.meta.url);
  try {
    const { astToString }: TypingFunctions = require("openapi-typescript/dist/lib/ts.cjs");
    const { resolveRef, scanDiscriminators }: TypingFunctions = require("openapi-typescript/dist/lib/utils.cjs");
    const transformSchema: TypingFunctions["transformSchema"] = require("openapi-typescript/dist/transform/index.cjs");
    if ([astToString, resolveRef, scanDiscriminators, transformSchema].every((part) => typeof part === "function")) {
      return { astToString, resolveRef, scanDiscriminators, transformSchema };
    }
  } catch {
    // Laid out otherwise: the entry point has them all.
  }
  const entry: TypingFunctions = require("openapi-typescript");
  return entry;
}

/**
 * openapi-typescript's settings as its `openapiTS` entry point sets them for `{ exportType: true, silent: true }`,
 * without the Redocly lint-and-bundle pass it runs first (a second or more on a large document): the document reaching
 * here is already bundled (no external `$ref`) and read by the generator's own loader.
 */
function typingContext(schema: OpenAPI3, lib: TypingFunctions): GlobalContext {
  return {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    defaultNonNullable: true,
    discriminators: lib.scanDiscriminators(schema, { silent: true }),
    // `{ type: object }` allows any object, as its JSON Schema does (not `Record<string, never>`).
    emptyObjectsUnknown: true,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: true,
    immutable: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    // Read only by the Redocly pass this skips.
    redoc: undefined as unknown as GlobalContext["redoc"],
    silent: true,
    transform: undefined,
    transformProperty: undefined,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: resolveOnce(schema, lib.resolveRef),
  };
}
