/** A JSON Schema object as published in `tools/list`. */
export type JsonSchema = { [key: string]: unknown };

/** Where one tool argument goes in the upstream request. */
export interface ParameterBinding {
  /** Property name in the tool's input schema. */
  readonly argument: string;
  /** Parameter name on the wire. */
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  /** Prefixes stripped from a path value (`memos/abc` → `abc`); `*` matches one segment. */
  readonly prefixes?: readonly string[];
  /** Style when not the location's default (`simple` for path and header, `form` for query and cookie). */
  readonly style?: string;
  /** Explode when not the style's default (`true` for `form`, `false` for the others). */
  readonly explode?: boolean;
  /** Query only: reserved characters are sent as they are. */
  readonly allowReserved?: boolean;
  /** A parameter declared by `content`: the value travels as one text of this media type (e.g. JSON). */
  readonly content?: string;
  /**
   * Supplied by the server, not the caller (config `parameters`): a fixed value or an environment variable. Such a
   * parameter is in no input schema.
   */
  readonly source?: ParameterSource;
}

/** A value the server supplies for a parameter or body property (config `parameters`): fixed, or from the environment. */
export type ParameterSource = { readonly value: string | number | boolean } | { readonly env: string };

/** How one property of a form or multipart body is serialised (its Encoding Object). */
export interface FieldEncoding {
  readonly style?: string;
  readonly explode?: boolean;
  readonly allowReserved?: boolean;
  readonly contentType?: string;
  /** Multipart only: headers sent on each part of the property, with the values the document fixes. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** How a request body travels. */
export interface BodyBinding {
  readonly mediaType: string;
  readonly kind: "json" | "form" | "multipart" | "text" | "binary";
  /** Per-property serialisation of form and multipart bodies. */
  readonly encoding?: Readonly<Record<string, FieldEncoding>>;
  /**
   * Body properties the server supplies (config `parameters`, Slack's form-body `token`), in no input schema; `required`
   * when the document requires them.
   */
  readonly sources?: Readonly<Record<string, ParameterSource & { readonly required?: boolean }>>;
  /** Multipart properties that carry files. */
  readonly files?: readonly string[];
  /**
   * Properties a caller may send back (read-only ones, from a read result, and ones the config ignores); they are
   * dropped before the call.
   */
  readonly readOnly?: readonly string[];
  /**
   * The operator closed the body (config `schemas.closedBodies`, `overrides.<id>.body.closed`): a field its schema
   * names nowhere, at any depth, is refused; else it is forwarded, as the document's open schema allows.
   */
  readonly closed?: boolean;
}

/** File content in a tool argument: base64 bytes, or a path under the server's `UPLOAD_DIR`. */
export type FileArgument =
  | { base64: string; filename?: string; contentType?: string }
  | { path: string; filename?: string; contentType?: string };

/** The upstream HTTP operation behind a tool. */
export interface HttpBinding {
  readonly method: "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";
  /** The OpenAPI path template, e.g. `/api/v1/memos/{memo}`. */
  readonly path: string;
  readonly parameters: readonly ParameterBinding[];
  /** The request body carried by the `body` argument, if the operation takes one. */
  readonly body?: BodyBinding;
  /**
   * What the result is made from: a JSON payload, text (`{ result }`), a binary summary, or nothing documented
   * (an empty body or `{}` becomes `{ ok: true }`).
   */
  readonly response: "json" | "text" | "binary" | "empty";
  /** Always return the payload as `{ result }` (its own top level could not be listed as an object). */
  readonly wrapResult?: boolean;
}

/** MCP tool annotations. @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-annotations */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** How a tool's results are checked against its output schema (see `ToolDefinition.outputValidation`). */
export type OutputValidation = "warn" | "strict" | "off";

/** Everything the runtime needs to list and call one tool. */
export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** The document's result schema; absent when the config dropped it (results are then not checked). */
  readonly outputSchema?: JsonSchema;
  /**
   * How results are checked against `outputSchema`: `warn` (default) lists it under a root any object matches, logs
   * where a result differs from the document and returns every result as structured content; `strict` lists it as it
   * is and reports a mismatch as an error; `off` lists it as `warn` does and never checks.
   */
  readonly outputValidation?: OutputValidation;
  readonly annotations: ToolAnnotations;
  /** The document's operationId, method and path; `deprecated` where the document marks the operation so. */
  readonly _meta: { readonly operationId?: string; readonly method: string; readonly path: string; readonly deprecated?: boolean };
  readonly http: HttpBinding;
  /** Security requirement alternatives of the operation (scheme name → scopes); absent when the document has none. */
  readonly security?: readonly Readonly<Record<string, readonly string[]>>[];
  /** Scopes a signed-in caller needs for this tool besides those the document names (config `overrides.<id>.scopes`). */
  readonly scopes?: readonly string[];
  /** The user confirms each call before it is sent (config `confirm`): asked through the client, refused where it cannot ask. */
  readonly confirm?: boolean;
}

/** A tool definition that also carries its argument and structured-result types. */
export interface Tool<Args = Record<string, unknown>, Result = Record<string, unknown>> extends ToolDefinition {
  /** Type-only marker; never set at run time. */
  readonly __types?: { readonly args: Args; readonly result: Result };
}

/** Arguments type of a tool. */
export type ToolArgs<T> = T extends Tool<infer Args, unknown> ? Args : never;

/** Structured-result type of a tool. */
export type ToolResult<T> = T extends Tool<Record<string, unknown>, infer Result> ? Result : never;

/**
 * A body type with some properties removed and a new `required` list: the others become optional. A required name the
 * document never declares (its schema requires it anyway) takes any value, as the JSON Schema does.
 */
export type ReshapeBody<T, Omitted extends PropertyKey, Required extends PropertyKey> = Partial<Omit<T, Omitted | Required>> & {
  [K in Required & keyof T]-?: Exclude<T[K], undefined>;
} & { [K in Exclude<Required, keyof T>]: unknown };

/** A body type whose file properties take file arguments (arrays of them for array properties). */
export type WithFiles<T, Files extends keyof T> = Omit<T, Files> & {
  [K in keyof Pick<T, Files>]: NonNullable<T[K]> extends readonly unknown[] ? FileArgument[] : FileArgument;
};

/** Declares a generated tool, binding its argument and result types. */
export function defineTool<Args, Result>(definition: ToolDefinition): Tool<Args, Result> {
  return definition;
}
