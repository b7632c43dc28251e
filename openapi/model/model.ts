import type { HttpMethod, JsonObject, OpenApiDocument } from "../document/index.js";
import type { Schema } from "./schema.js";
import type { SchemaCatalog } from "./schema-catalog.js";

/** Where a parameter travels. */
export type ParameterLocation = "path" | "query" | "header" | "cookie";

/** One parameter of an operation, path-level and operation-level merged, its `$ref` resolved. */
export interface ParameterModel {
  readonly name: string;
  readonly in: ParameterLocation;
  /** Path parameters are always required. */
  readonly required: boolean;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly style?: string;
  readonly explode?: boolean;
  readonly allowReserved: boolean;
  readonly schema?: Schema;
  /** A parameter described by a media type instead of a schema (its first entry). */
  readonly content?: { readonly mediaType: string; readonly schema?: Schema };
  /** Added for a `{placeholder}` of the path the document declares no parameter for. */
  readonly synthesized: boolean;
  /** The parameter object as written (or as added). */
  readonly declared: JsonObject;
}

/** How one form or multipart field is encoded. @see https://spec.openapis.org/oas/v3.1.1#encoding-object */
export interface EncodingModel {
  readonly style?: string;
  readonly explode?: boolean;
  readonly allowReserved?: boolean;
  readonly contentType?: string;
  /** Multipart part headers whose value the document fixes (a schema's `const`, `default` or single `enum`). */
  readonly headers?: ReadonlyMap<string, string>;
}

/** One media type of a request or response body. */
export interface MediaTypeModel {
  readonly mediaType: string;
  readonly schema?: Schema;
  readonly encoding: ReadonlyMap<string, EncodingModel>;
}

/** A request body, its `$ref` resolved. */
export interface RequestBodyModel {
  readonly description?: string;
  readonly required: boolean;
  readonly content: readonly MediaTypeModel[];
  readonly declared: JsonObject;
}

/** One response of an operation, its `$ref` resolved. */
export interface ResponseModel {
  /** The status key as written (`200`, `2XX`, `default`). */
  readonly status: string;
  readonly description?: string;
  readonly content: readonly MediaTypeModel[];
  readonly declared: JsonObject;
}

/** A security requirement: scheme name → scopes. An empty object means "no authentication". */
export type SecurityRequirement = Record<string, string[]>;

/** The security that applies to an operation: its own, else the document's. */
export interface SecurityModel {
  readonly requirements: readonly SecurityRequirement[];
  readonly source: "operation" | "global" | "none";
  /** True when no requirement is declared or one of them is empty. */
  readonly public: boolean;
}

/** One operation of the document, every reference in it resolved. */
export interface OperationModel {
  /** Position in document order. */
  readonly index: number;
  readonly operationId?: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly parameters: readonly ParameterModel[];
  readonly requestBody?: RequestBodyModel;
  /** In document order. */
  readonly responses: readonly ResponseModel[];
  readonly security: SecurityModel;
  /** What the document leaves out and reading filled in (a forgotten path parameter). */
  readonly warnings: readonly string[];
  /** A reference in the body or responses that points nowhere or in a circle; they are then left empty. */
  readonly problem?: string;
  /** The operation object as written. */
  readonly declared: JsonObject;
}

/** A security scheme of `components.securitySchemes`. */
export interface SecuritySchemeModel {
  readonly type: string;
  readonly description?: string;
  /** apiKey: where the key goes and under which name. */
  readonly in?: string;
  readonly parameterName?: string;
  /** http: the scheme (`bearer`, `basic`, …), lower-cased. */
  readonly scheme?: string;
  /** oauth2: the client-credentials flow's token URL. */
  readonly clientCredentialsTokenUrl?: string;
  /** oauth2: the authorization-code flow's endpoints. */
  readonly authorizationCode?: { readonly authorizationUrl: string; readonly tokenUrl: string };
  readonly declared: JsonObject;
}

/** A server of the document, with its variables' defaults. */
export interface ServerModel {
  readonly url: string;
  readonly variableDefaults: ReadonlyMap<string, string>;
}

/** A document read once: what the generator and the search server both work from. */
export interface ApiModel {
  /** The document itself, for stages that need it whole (openapi-typescript, views that show it as written). */
  readonly document: OpenApiDocument;
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly ServerModel[];
  /** Root tags with their descriptions, then tags only operations use. */
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly operations: readonly OperationModel[];
  readonly securitySchemes: ReadonlyMap<string, SecuritySchemeModel>;
  /** The document's own `security` requirements (what operations without their own use). */
  readonly globalSecurity: readonly SecurityRequirement[];
  readonly schemas: SchemaCatalog;
  /** Every path of the document, in document order (with or without operations). */
  readonly paths: readonly string[];
  readonly webhookCount: number;
}
