import type { BodyBinding, HttpBinding, JsonSchema, OutputValidation, ToolAnnotations, ToolDefinition } from "oapi-mcp-gen-runtime";

/** An OpenAPI method key, as a tool's model names it. */
export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

/** A request body as the templates write it: the runtime's binding, and how its type differs from the document's. */
export interface BodyView extends BodyBinding {
  required: boolean;
  /** Set when the body's properties or `required` list differ from the document's schema. */
  reshape?: { omitted: readonly string[]; required: readonly string[] };
  /** The document declares the body without a media type: its type is any object. */
  undeclared?: boolean;
}

/** What the templates write of one tool (the generator's tool model is one). */
export interface ToolView {
  name: string;
  title: string;
  description: string;
  operationId: string | undefined;
  /** The document marks the operation deprecated (`deprecated: true`, or a vendor's own mark). */
  deprecated?: boolean;
  method: HttpMethod;
  path: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  outputValidation: OutputValidation;
  /** False when the config dropped the output schema. */
  publishOutputSchema: boolean;
  annotations: ToolAnnotations & { readonly title: string };
  parameters: HttpBinding["parameters"];
  /** Arguments of path placeholders the document declares no parameter for: typed `string`. */
  undeclaredParameters: readonly string[];
  body?: BodyView;
  response: {
    kind: HttpBinding["response"];
    /** The payload is wrapped as `{ result }` because its schema is not an object. */
    wrapped: boolean;
    /** The status key in the document (`200`, `2XX`), if one is documented. */
    status?: string;
    /** The media type of that response, if it has one. */
    mediaType?: string;
  };
  security?: ToolDefinition["security"];
  scopes?: ToolDefinition["scopes"];
  /** The user confirms each call (config `confirm`). */
  confirm?: ToolDefinition["confirm"];
}

/** `$defs` schemas that several tools contain word for word, written once and referenced by constant name. */
export interface SharedSchemas {
  /** Constant name by canonical JSON of the schema. */
  nameByContent: ReadonlyMap<string, string>;
  /** The constants, in a fixed order. */
  constants: [name: string, schema: JsonSchema][];
}
