import type { BodyBinding } from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../openapi/types.js";

/** How a request or response body travels. */
export type BodyKind = BodyBinding["kind"];

/** The media type without parameters, lower-cased. */
function essence(type: string): string {
  return (type.split(";")[0] ?? "").trim().toLowerCase();
}

/** The kind of body a media type carries. */
export function bodyKind(type: string): BodyKind {
  const base = essence(type);
  if (base === "application/json" || /^[a-z]+\/([a-z0-9.+-]+\+)?json$/.test(base) || base === "*/*") return "json";
  if (base === "application/x-www-form-urlencoded") return "form";
  if (base.startsWith("multipart/")) return "multipart";
  if (base.startsWith("text/") || /\+xml$|\/xml$/.test(base)) return "text";
  return "binary";
}

const PREFERENCE: BodyKind[] = ["json", "form", "multipart", "text", "binary"];

/** Picks the media type of a `content` map a tool can best express: JSON, then form, multipart, text, binary. */
export function preferredMediaType(content: JsonObject | undefined): { mediaType: string; kind: BodyKind } | undefined {
  if (!content) return undefined;
  const types = Object.keys(content);
  for (const kind of PREFERENCE) {
    const exact = kind === "json" ? types.find((type) => essence(type) === "application/json") : undefined;
    const match = exact ?? types.find((type) => bodyKind(type) === kind && essence(type) !== "*/*");
    if (match) return { mediaType: match, kind };
  }
  return types.includes("*/*") ? { mediaType: "*/*", kind: "json" } : undefined;
}

/** The JSON media type of a `content` map: `application/json` first, then any `+json` type. */
export function jsonMediaType(content: JsonObject | undefined): string | undefined {
  const preferred = preferredMediaType(content);
  return preferred?.kind === "json" ? preferred.mediaType : undefined;
}
