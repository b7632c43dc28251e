import type { BodyBinding } from "oapi-mcp-gen-runtime";
import type { MediaTypeModel } from "../../openapi/model/index.js";

/** How a request or response body travels. */
export type BodyKind = BodyBinding["kind"];

/** The media type without parameters, lower-cased. */
function essence(type: string): string {
  return (type.split(";")[0] ?? "").trim().toLowerCase();
}

/** Media types outside `text/` that carry text all the same (Directus answers its ping as `application/text`). */
const TEXT_APPLICATION_TYPES = /^application\/(text|plain|yaml|x-yaml|csv|x-ndjson|javascript|ecmascript|graphql|sql)$/;

/** The kind of body a media type carries. */
export function bodyKind(type: string): BodyKind {
  const base = essence(type);
  if (TEXT_APPLICATION_TYPES.test(base)) return "text";
  if (base === "application/json" || /^[a-z]+\/([a-z0-9.+-]+\+)?json$/.test(base) || base === "*/*") return "json";
  if (base === "application/x-www-form-urlencoded") return "form";
  if (base.startsWith("multipart/")) return "multipart";
  if (base.startsWith("text/") || /\+xml$|\/xml$/.test(base)) return "text";
  return "binary";
}

const PREFERENCE: BodyKind[] = ["json", "form", "multipart", "text", "binary"];

/** Picks the media type of a body a tool can best express: JSON, then form, multipart, text, binary. */
export function preferredMediaType(content: readonly MediaTypeModel[]): { media: MediaTypeModel; kind: BodyKind } | undefined {
  for (const kind of PREFERENCE) {
    const exact = kind === "json" ? content.find((media) => essence(media.mediaType) === "application/json") : undefined;
    const match = exact ?? content.find((media) => bodyKind(media.mediaType) === kind && essence(media.mediaType) !== "*/*");
    if (match) return { media: match, kind };
  }
  const any = content.find((media) => media.mediaType === "*/*");
  return any ? { media: any, kind: "json" } : undefined;
}
