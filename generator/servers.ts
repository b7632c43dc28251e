import type { UpstreamDefaults } from "oapi-mcp-gen-runtime";
import { isJsonObject, type OpenApiDocument } from "../openapi/types.js";

export type { UpstreamDefaults };

/**
 * The config's `baseUrl`, else the document's first server with its variables set to their defaults; a relative
 * server URL is resolved against the document's own URL when it came from one, and otherwise becomes a hint.
 * @see https://spec.openapis.org/oas/v3.1.0#server-object
 */
export function upstreamDefaults(document: OpenApiDocument, baseUrl: string | undefined, documentUrl?: string): UpstreamDefaults {
  if (baseUrl) return { defaultBaseUrl: baseUrl, fromConfig: true };
  const first = Array.isArray(document.servers) ? document.servers.find(isJsonObject) : undefined;
  if (!first || typeof first.url !== "string") return {};
  const variables = isJsonObject(first.variables) ? first.variables : {};
  const url = first.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isJsonObject(variable) && typeof variable.default === "string" ? variable.default : whole;
  });
  if (/\{[^{}]+\}/.test(url)) return { hint: `the document's server ${first.url} has variables without defaults` };
  try {
    const absolute = new URL(url, documentUrl);
    if (absolute.protocol === "http:" || absolute.protocol === "https:") return { defaultBaseUrl: absolute.href.replace(/\/$/, "") };
  } catch {}
  return {
    hint: `the document's server is relative (${url}): give the full URL, e.g. https://api.example.com${url.startsWith("/") ? url : `/${url}`}`,
  };
}
