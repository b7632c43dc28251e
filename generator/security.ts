import type { OperationEntry } from "../openapi/operations.js";
import { isJsonObject, type JsonObject, type OpenApiDocument } from "../openapi/types.js";
import { words } from "../openapi/words.js";
import { setOwn } from "../runtime/own-property.js";

/** One security scheme as the runtime applies it, with the environment variables that hold its credentials. */
export interface SchemeModel {
  type: "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS";
  /** apiKey: where the key goes and under which name. */
  in?: "header" | "query" | "cookie";
  name?: string;
  /** http: `bearer`, `basic`, … */
  scheme?: string;
  /** oauth2: the client-credentials token URL, if the scheme has that flow. */
  tokenUrl?: string;
  /** Role (`apiKey`, `token`, `username`, `password`, `clientId`, `clientSecret`, `tokenUrl`) → variable name. */
  env: Record<string, string>;
  description?: string;
}

/** A security requirement: scheme name → scopes. An empty object means "no authentication". */
export type SecurityRequirement = Record<string, string[]>;

/** The environment-variable stem of a scheme: `apiKeyHeader` → `API_KEY_HEADER`. */
export function envStem(schemeName: string): string {
  return words(schemeName).join("_").toUpperCase() || "AUTH";
}

/** The schemes of `components.securitySchemes` as the runtime needs them. */
export function securitySchemes(document: OpenApiDocument): Record<string, SchemeModel> {
  const components = isJsonObject(document.components) ? document.components : {};
  const schemes = isJsonObject(components.securitySchemes) ? components.securitySchemes : {};
  const out: Record<string, SchemeModel> = {};
  for (const [name, raw] of Object.entries(schemes)) {
    if (!isJsonObject(raw) || typeof raw.type !== "string") continue;
    const stem = envStem(name);
    const model: SchemeModel = { type: raw.type as SchemeModel["type"], env: {} };
    if (typeof raw.description === "string") model.description = raw.description;
    if (raw.type === "apiKey") {
      model.in = raw.in === "query" || raw.in === "cookie" ? raw.in : "header";
      model.name = typeof raw.name === "string" ? raw.name : "X-API-Key";
      model.env = { apiKey: `${stem}_API_KEY` };
    } else if (raw.type === "http") {
      model.scheme = typeof raw.scheme === "string" ? raw.scheme.toLowerCase() : "bearer";
      model.env = model.scheme === "basic" ? { username: `${stem}_USERNAME`, password: `${stem}_PASSWORD` } : { token: `${stem}_TOKEN` };
    } else if (raw.type === "oauth2") {
      const flows = isJsonObject(raw.flows) ? raw.flows : {};
      const client = isJsonObject(flows.clientCredentials) ? flows.clientCredentials : undefined;
      if (client && typeof client.tokenUrl === "string") model.tokenUrl = client.tokenUrl;
      model.env = {
        token: `${stem}_TOKEN`,
        clientId: `${stem}_CLIENT_ID`,
        clientSecret: `${stem}_CLIENT_SECRET`,
        tokenUrl: `${stem}_TOKEN_URL`,
      };
    } else {
      model.env = { token: `${stem}_TOKEN` };
    }
    setOwn(out, name, model);
  }
  return out;
}

/** The effective requirements of an operation: its own `security`, else the document's; undefined when neither says. */
export function operationSecurity(document: OpenApiDocument, entry: OperationEntry): SecurityRequirement[] | undefined {
  const own = entry.operation.security;
  const list = Array.isArray(own) ? own : Array.isArray(document.security) ? document.security : undefined;
  if (!list) return undefined;
  return list
    .filter(isJsonObject)
    .map((requirement: JsonObject) =>
      Object.fromEntries(Object.entries(requirement).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.map(String) : []])),
    );
}
