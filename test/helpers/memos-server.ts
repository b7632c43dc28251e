import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { type RunningServer, silentLogger, startServer } from "oapi-mcp-gen/runtime";
import { serverIdentity, tools } from "../../generated/index.js";

/** Starts the committed generated Memos server in-process on a free loopback port. */
export async function startMemosServer(apiBaseUrl: URL, overrides: { timeoutMs?: number; allowedOrigins?: string[] } = {}): Promise<RunningServer> {
  return startServer({
    identity: serverIdentity,
    tools,
    log: silentLogger,
    environment: {
      apiBaseUrl,
      host: "127.0.0.1",
      port: 0,
      allowedOrigins: new Set(overrides.allowedOrigins ?? []),
      timeoutMs: overrides.timeoutMs ?? 5_000,
      maxResponseBytes: 1024 * 1024,
      maxRequestBytes: 1024 * 1024,
    },
  });
}

/** An SDK client connected over Streamable HTTP, sending the given headers. */
export async function connectClient(url: URL, headers: Record<string, string> = {}): Promise<Client> {
  // The SDK's default validator settings (draft-07, formats checked), minus its console warnings.
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, logger: false });
  (addFormatsModule as unknown as (ajv: Ajv) => Ajv)(ajv);
  const client = new Client({ name: "oapi-mcp-gen-test", version: "1.0.0" }, { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv) });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}
