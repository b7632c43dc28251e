import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isRecord } from "../base/own-property.js";
import { errorDetails } from "./error-details.js";

/** Object-shaped structured content: objects as they are, `{ ok: true }` for nothing, `{ result }` otherwise. */
export function wrapStructuredContent(value: unknown): Record<string, unknown> {
  if (value === undefined) return { ok: true };
  if (isRecord(value)) return value;
  return { result: value };
}

/** A successful tool result: compact JSON text plus the same value as structured content. */
export function successResult(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
}

/** A failed tool result: a concise message, no structured content. */
export function errorResult(message: string, detail?: string): CallToolResult {
  const content: CallToolResult["content"] = [{ type: "text", text: message }];
  if (detail !== undefined) content.push({ type: "text", text: detail });
  return { content, isError: true };
}

/** Parses a body as JSON whatever its content type (Memos sends JSON errors as text/plain). */
export function decodeJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const MAX_MESSAGE_LENGTH = 500;
/** The message with the details an answer lists, at most this long. */
const MAX_DETAILED_LENGTH = 2_500;

/**
 * The API's own error message (`message`, `error`, `error.message`, `detail` or `title`, else the text itself), with
 * the details it lists (`details`, `errors`, RFC 9457's `invalid-params`, …): what a model needs to fix its call
 * ("refer to the details list" says nothing by itself).
 */
export function apiErrorMessage(text: string): string {
  const decoded = decodeJson(text);
  if (decoded.ok && typeof decoded.value === "object" && decoded.value !== null) {
    const body = decoded.value;
    if (isRecord(body)) {
      const nested = isRecord(body.error) ? body.error.message : undefined;
      const message = [body.message, body.error, nested, body.detail, body.title, body.error_description].find(
        (candidate): candidate is string => typeof candidate === "string" && candidate.trim() !== "",
      );
      if (message !== undefined) {
        const details = errorDetails(body, message);
        const said = truncate(message.trim());
        if (details.length === 0) return said;
        const listed = `${said} — ${details.join("; ")}`;
        return listed.length > MAX_DETAILED_LENGTH ? `${listed.slice(0, MAX_DETAILED_LENGTH)}… [truncated]` : listed;
      }
      const details = errorDetails(body, "");
      if (details.length > 0) return truncate(details.join("; "));
    }
    return truncate(JSON.stringify(body));
  }
  if (decoded.ok && typeof decoded.value === "string") return truncate(decoded.value);
  // Only the start is shown: cleaning is linear and bounded (a body of 64 KiB of `<` costs nothing).
  return truncate(
    text
      .slice(0, 4 * MAX_MESSAGE_LENGTH)
      .replace(/<[^<>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
}

/** The tool error for a non-2xx upstream status; 429 and 503 say when to try again. */
export function httpErrorMessage(status: number, text: string, retryAfter?: string): string {
  const message = apiErrorMessage(text);
  const suffix = message === "" ? "" : `: ${message}`;
  if (status === 401) return `Unauthorized (401)${suffix}`;
  if (status === 403) return `Forbidden (403)${suffix}`;
  if (status === 404) return `Not found (404)${suffix}`;
  if (status === 429 || status === 503)
    return `${status === 429 ? "Rate limited (429)" : "Unavailable (503)"}${suffix}. ${retryAdvice(retryAfter)}`;
  return `Upstream API error ${status}${suffix}`;
}

/** When to retry, from a `Retry-After` of seconds or an HTTP date. @see https://www.rfc-editor.org/rfc/rfc9110#field.retry-after */
function retryAdvice(retryAfter: string | undefined): string {
  if (retryAfter === undefined || retryAfter === "") return "Retry later.";
  if (/^\d+$/.test(retryAfter)) return `Retry after ${Number(retryAfter)} seconds.`;
  const at = Date.parse(retryAfter);
  if (Number.isNaN(at)) return "Retry later.";
  return `Retry after ${Math.max(0, Math.ceil((at - Date.now()) / 1000))} seconds (${new Date(at).toISOString()}).`;
}

function truncate(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}… [truncated]` : text;
}
