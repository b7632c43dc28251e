import { type SecuritySchemeDefinition, setOwn } from "oapi-mcp-gen-runtime";
import type { OperationEntry } from "../openapi/operations.js";
import { isJsonObject, type JsonObject, type OpenApiDocument } from "../openapi/types.js";
import { words } from "../openapi/words.js";

/** One security scheme as the runtime applies it (the runtime owns the type). */
export type SchemeModel = SecuritySchemeDefinition;

/** Where a scheme's credential goes and which environment variables hold it. */
function schemeBinding(raw: JsonObject, stem: string): Omit<SchemeModel, "type" | "description"> {
  if (raw.type === "apiKey") {
    return {
      in: raw.in === "query" || raw.in === "cookie" ? raw.in : "header",
      name: typeof raw.name === "string" ? raw.name : "X-API-Key",
      env: { apiKey: `${stem}_API_KEY` },
    };
  }
  if (raw.type === "http") {
    const scheme = typeof raw.scheme === "string" ? raw.scheme.toLowerCase() : "bearer";
    return {
      scheme,
      env: scheme === "basic" ? { username: `${stem}_USERNAME`, password: `${stem}_PASSWORD` } : { token: `${stem}_TOKEN` },
    };
  }
  if (raw.type === "oauth2") {
    const flows = isJsonObject(raw.flows) ? raw.flows : {};
    const client = isJsonObject(flows.clientCredentials) ? flows.clientCredentials : undefined;
    return {
      ...(client && typeof client.tokenUrl === "string" ? { tokenUrl: client.tokenUrl } : {}),
      env: { token: `${stem}_TOKEN`, clientId: `${stem}_CLIENT_ID`, clientSecret: `${stem}_CLIENT_SECRET`, tokenUrl: `${stem}_TOKEN_URL` },
    };
  }
  return { env: { token: `${stem}_TOKEN` } };
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
    const { env, ...placement } = schemeBinding(raw, envStem(name));
    const description = typeof raw.description === "string" ? { description: raw.description } : {};
    setOwn(out, name, { type: raw.type as SchemeModel["type"], env, ...description, ...placement });
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
