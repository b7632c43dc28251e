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
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: postWithOwnSignal }));
  return client;
}

/**
 * `fetch` for the SDK transport. It gives every request the transport's one AbortSignal, and undici drops each
 * request's abort listener only when that request is garbage-collected: a busy client passes 1,500 listeners and
 * Node warns. A POST here gets a signal of its own, linked to the transport's until the answer arrives (the SDK
 * reads a POST's answer to its end); GET event streams keep the transport's signal, which closes them.
 */
const postWithOwnSignal: typeof fetch = async (input, init) => {
  const shared = init?.signal;
  if (init?.method !== "POST" || !shared) return fetch(input, init);
  const own = new AbortController();
  const follow = () => own.abort(shared.reason);
  if (shared.aborted) follow();
  else shared.addEventListener("abort", follow, { once: true });
  try {
    return await fetch(input, { ...init, signal: own.signal });
  } finally {
    shared.removeEventListener("abort", follow);
  }
};

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
