import { DocumentParseError } from "./load.js";
import { isJsonObject, isOpenApiDocument, type JsonObject, type OpenApiDocument } from "./types.js";

/** A document in OpenAPI 3.x form, with the version it was written in and what loading noticed. */
export interface NormalizedDocument {
  document: OpenApiDocument;
  /** The version the source declared (`2.0`, `3.0.3`, `3.1.0`, …). */
  sourceVersion: string;
  warnings: string[];
}

/** Checks the top-level shape and converts Swagger 2.0 to OpenAPI 3.0 with swagger2openapi. */
export async function normalizeDocument(raw: JsonObject, source = "document"): Promise<NormalizedDocument> {
  const warnings: string[] = [];
  const version = declaredVersion(raw, source);
  if (!isJsonObject(raw.info)) throw new DocumentParseError(`${source}: missing the required "info" object`);
  const hasPaths = isJsonObject(raw.paths);
  const hasWebhooks = version.startsWith("3.1") && isJsonObject(raw.webhooks);
  if (!hasPaths && !hasWebhooks) {
    throw new DocumentParseError(`${source}: missing the required "paths" object${version.startsWith("3.1") ? ' (or "webhooks")' : ""}`);
  }
  if (version === "2.0") {
    const converted = await convertSwagger2(raw, source);
    warnings.push("converted from Swagger 2.0 to OpenAPI 3.0 with swagger2openapi");
    return { document: converted, sourceVersion: version, warnings };
  }
  if (!isOpenApiDocument(raw)) throw new DocumentParseError(`${source}: not an OpenAPI document`);
  return { document: raw, sourceVersion: version, warnings };
}

function declaredVersion(raw: JsonObject, source: string): string {
  if (typeof raw.openapi === "string") {
    if (/^3\.[01]\.\d+/.test(raw.openapi)) return raw.openapi;
    throw new DocumentParseError(`${source}: unsupported OpenAPI version "${raw.openapi}" (supported: 2.0, 3.0.x, 3.1.x)`);
  }
  if (raw.swagger !== undefined) {
    if (String(raw.swagger) === "2.0") return "2.0";
    throw new DocumentParseError(`${source}: unsupported Swagger version "${String(raw.swagger)}" (supported: 2.0)`);
  }
  throw new DocumentParseError(`${source}: not an OpenAPI document (no "openapi" or "swagger" field)`);
}

async function convertSwagger2(raw: JsonObject, source: string): Promise<OpenApiDocument> {
  try {
    // `text` is only used for error positions; passing it avoids a full YAML re-serialisation.
    const { default: swagger2openapi } = await import("swagger2openapi");
    const { openapi } = await swagger2openapi.convertObj(structuredClone(raw), { patch: true, warnOnly: true, text: "" });
    if (isOpenApiDocument(openapi)) return openapi;
    throw new Error("the converter returned no OpenAPI document");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new DocumentParseError(`${source}: cannot convert Swagger 2.0: ${message.split("\n")[0]}`);
  }
}

/** A document the parse worker sent back as JSON text. */
export function parseOpenApiJson(text: string, source: string): OpenApiDocument {
  const value: unknown = JSON.parse(text);
  if (!isOpenApiDocument(value)) throw new DocumentParseError(`${source}: not an OpenAPI document`);
  return value;
}
