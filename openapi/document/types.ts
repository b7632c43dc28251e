/** A JSON value as parsed from an OpenAPI document. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object node of an OpenAPI document. */
export type JsonObject = { [key: string]: JsonValue };

/** The HTTP methods an OpenAPI path item can hold, in the order the specification lists them. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One HTTP method of a path item. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** An OpenAPI 3.x document after loading (Swagger 2.0 documents are converted first). */
export interface OpenApiDocument extends JsonObject {
  openapi: string;
}

/** A parameter after `$ref` resolution. @see https://spec.openapis.org/oas/v3.1.0#parameter-object */
export interface ParameterObject {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonValue;
  style?: string;
  explode?: boolean;
  allowReserved?: boolean;
  /** A parameter described by a media type instead of a schema (one entry). */
  content?: JsonValue;
  deprecated?: boolean;
}

/** True when a value is an OpenAPI 3.x document object (it says which version it is). */
export function isOpenApiDocument(value: unknown): value is OpenApiDocument {
  return isJsonObject(value) && typeof value.openapi === "string";
}

/** True when a JSON value is a plain object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
