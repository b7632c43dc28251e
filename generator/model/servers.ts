import type { UpstreamDefaults } from "oapi-mcp-gen-runtime";
import type { ApiModel } from "../../openapi/model/index.js";

export type { UpstreamDefaults };

/**
 * The config's `baseUrl`, else the document's first server with its variables set to their defaults; a relative
 * server URL is resolved against the document's own URL when it came from one, and otherwise becomes a hint.
 * @see https://spec.openapis.org/oas/v3.1.0#server-object
 */
export function upstreamDefaults(model: ApiModel, baseUrl: string | undefined, documentUrl?: string): UpstreamDefaults {
  if (baseUrl) return { defaultBaseUrl: baseUrl, fromConfig: true };
  const first = model.servers[0];
  if (!first) return {};
  const url = first.url.replace(/\{([^{}]+)\}/g, (whole, name: string) => first.variableDefaults.get(name) ?? whole);
  if (/\{[^{}]+\}/.test(url)) return { hint: `the document's server ${first.url} has variables without defaults` };
  try {
    const absolute = new URL(url, documentUrl);
    if (absolute.protocol === "http:" || absolute.protocol === "https:") return { defaultBaseUrl: absolute.href.replace(/\/$/, "") };
  } catch {}
  return {
    hint: `the document's server is relative (${url}): give the full URL, e.g. https://api.example.com${url.startsWith("/") ? url : `/${url}`}`,
  };
}
