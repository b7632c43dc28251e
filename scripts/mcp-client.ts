import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";

/**
 * An SDK client over Streamable HTTP. It validates results with the SDK's default settings (draft-07, formats
 * checked) but without the console warnings Ajv prints for OpenAPI-only formats such as `int32`.
 */
export async function connectClient(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  const client = quietClient("oapi-mcp-gen-client");
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

/** An unconnected SDK client with the quiet validator described above. */
export function quietClient(name: string): Client {
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, logger: false });
  (addFormatsModule as unknown as (ajv: Ajv) => Ajv)(ajv);
  return new Client({ name, version: "1.0.0" }, { jsonSchemaValidator: new DistinctSchemaValidator(new AjvJsonSchemaValidator(ajv)) });
}

/** Compiles each distinct schema once: the client compiles every output schema on each `tools/list`, and large APIs repeat them. */
class DistinctSchemaValidator implements jsonSchemaValidator {
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  constructor(private readonly inner: jsonSchemaValidator) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (validator === undefined) {
      validator = this.inner.getValidator<unknown>(schema);
      this.compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }
}
