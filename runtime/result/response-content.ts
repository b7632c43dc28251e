import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** A response the upstream API sent, its body read up to the limit (`truncated` past it). */
export interface UpstreamResponse {
  kind: "response";
  status: number;
  contentType: string;
  body: Buffer;
  truncated: boolean;
  size: number;
  sha256?: string;
  /** The `Retry-After` header of a 429 or 503, as sent. */
  retryAfter?: string;
}

/** What a response body really is, by its `Content-Type` (not by what the document declared). */
export type BodyNature = "json" | "text" | "image" | "audio" | "binary" | "unknown";

/** True for `application/json`, `text/json` and any `+json` media type (parameters after `;` ignored). */
export function isJsonMediaType(mediaType: string): boolean {
  const type = mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || type === "text/json" || type.endsWith("+json");
}

/** The nature of a body from its media type. @see https://www.rfc-editor.org/rfc/rfc6838#section-4.2.8 (structured syntax suffixes) */
export function bodyNature(contentType: string): BodyNature {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "") return "unknown";
  if (isJsonMediaType(type)) return "json";
  if (type.startsWith("text/") || type.endsWith("+xml") || type === "application/xml" || type === "application/javascript") return "text";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("audio/")) return "audio";
  return "binary";
}

/** A one-line description of bytes that are not text: media type, size and digest. */
export function binarySummary(contentType: string, size: number, sha256: string): string {
  return `[${contentType || "application/octet-stream"}, ${size} bytes, sha256 ${sha256}]`;
}

/**
 * MCP content for bytes: an image or audio block, or an embedded resource blob for other binary types (named by the
 * upstream URL it came from). @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result
 */
export function binaryContent(nature: BodyNature, contentType: string, bytes: Buffer, uri: string): CallToolResult["content"][number] {
  const mimeType = contentType.split(";")[0]?.trim() || "application/octet-stream";
  const data = bytes.toString("base64");
  if (nature === "image") return { type: "image", data, mimeType };
  if (nature === "audio") return { type: "audio", data, mimeType };
  return { type: "resource", resource: { uri, mimeType, blob: data } };
}
