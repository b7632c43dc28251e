import { type SecuritySchemeDefinition, setOwn, words } from "oapi-mcp-gen-runtime";
import type { ApiModel, SecuritySchemeModel } from "../../openapi/model/index.js";

/** One security scheme as the runtime applies it (the runtime owns the type). */
export type SchemeModel = SecuritySchemeDefinition;

export type { SecurityRequirement } from "../../openapi/model/index.js";

/** Where a scheme's credential goes and which environment variables hold it. */
function schemeBinding(scheme: SecuritySchemeModel, stem: string): Omit<SchemeModel, "type" | "description"> {
  if (scheme.type === "apiKey") {
    return {
      in: scheme.in === "query" || scheme.in === "cookie" ? scheme.in : "header",
      name: scheme.parameterName ?? "X-API-Key",
      env: { apiKey: `${stem}_API_KEY` },
    };
  }
  if (scheme.type === "http") {
    const name = scheme.scheme ?? "bearer";
    return {
      scheme: name,
      env: name === "basic" ? { username: `${stem}_USERNAME`, password: `${stem}_PASSWORD` } : { token: `${stem}_TOKEN` },
    };
  }
  if (scheme.type === "oauth2") {
    return {
      ...(scheme.clientCredentialsTokenUrl !== undefined ? { tokenUrl: scheme.clientCredentialsTokenUrl } : {}),
      env: { token: `${stem}_TOKEN`, clientId: `${stem}_CLIENT_ID`, clientSecret: `${stem}_CLIENT_SECRET`, tokenUrl: `${stem}_TOKEN_URL` },
    };
  }
  return { env: { token: `${stem}_TOKEN` } };
}

/** The environment-variable stem of a scheme: `apiKeyHeader` → `API_KEY_HEADER`. */
export function envStem(schemeName: string): string {
  return words(schemeName).join("_").toUpperCase() || "AUTH";
}

/** The schemes of `components.securitySchemes` as the runtime needs them. */
export function securitySchemes(model: ApiModel): Record<string, SchemeModel> {
  const out: Record<string, SchemeModel> = {};
  for (const [name, scheme] of model.securitySchemes) {
    const { env, ...placement } = schemeBinding(scheme, envStem(name));
    const description = scheme.description !== undefined ? { description: scheme.description } : {};
    setOwn(out, name, { type: schemeType(scheme.type), env, ...description, ...placement });
  }
  return out;
}

const SCHEME_TYPES: readonly SchemeModel["type"][] = ["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"];

/** The scheme types the runtime knows; another (a typo, a vendor extension) is applied as a bearer token. */
function schemeType(type: string): SchemeModel["type"] {
  return SCHEME_TYPES.find((known) => known === type) ?? "http";
}
