import type { JsonObject, JsonValue } from "../../openapi/document/index.js";

/** Default size of one tool answer, in characters of JSON. */
export const DEFAULT_MAX_CHARS = 40_000;

const LONG_STRING = 400;
const LONG_ARRAY = 50;

/** A value cut to fit a budget, and whether anything was cut. */
export interface BoundedValue {
  value: JsonValue;
  truncated: boolean;
}

/**
 * Fits a JSON value into `maxChars` characters of JSON: first long strings and arrays are shortened, then ever
 * shallower nesting is replaced by markers. Every cut leaves a visible `[truncated: …]` marker; nothing is dropped silently.
 */
export function boundValue(value: JsonValue, maxChars = DEFAULT_MAX_CHARS): BoundedValue {
  if (JSON.stringify(value).length <= maxChars) return { value, truncated: false };
  let shortened = shorten(value);
  if (JSON.stringify(shortened).length <= maxChars) return { value: shortened, truncated: true };
  for (let depth = 12; depth >= 1; depth--) {
    shortened = collapse(shortened, depth);
    if (JSON.stringify(shortened).length <= maxChars) return { value: shortened, truncated: true };
  }
  return {
    value: `[truncated: ${JSON.stringify(value).length} characters of JSON exceed the ${maxChars}-character limit]`,
    truncated: true,
  };
}

/** A text cut at `limit` characters, with a marker saying how much was left out. */
export function clipText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… [truncated: ${text.length - limit} more characters]` : text;
}

function shorten(value: JsonValue): JsonValue {
  if (typeof value === "string") return clipText(value, LONG_STRING);
  if (Array.isArray(value)) {
    const kept = value.slice(0, LONG_ARRAY).map(shorten);
    if (value.length > LONG_ARRAY) kept.push(`[truncated: ${value.length - LONG_ARRAY} more items]`);
    return kept;
  }
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shorten(item)]));
  }
  return value;
}

function collapse(value: JsonValue, depth: number): JsonValue {
  if (Array.isArray(value)) {
    return depth <= 0 ? `[truncated: array of ${value.length} items]` : value.map((item) => collapse(item, depth - 1));
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (depth <= 0)
      return `[truncated: object with ${entries.length} keys: ${entries
        .slice(0, 8)
        .map(([key]) => key)
        .join(", ")}${entries.length > 8 ? ", …" : ""}]`;
    return Object.fromEntries(entries.map(([key, item]) => [key, collapse(item, depth - 1)]));
  }
  return value;
}

/** Fits an answer object into `maxChars`; its top level stays an object (only what it holds is cut). */
export function boundObject(value: JsonObject, maxChars = DEFAULT_MAX_CHARS): { value: JsonObject; truncated: boolean } {
  const bounded = boundValue(value, maxChars);
  const result = bounded.value;
  return typeof result === "object" && result !== null && !Array.isArray(result)
    ? { value: result, truncated: bounded.truncated }
    : { value: { result }, truncated: bounded.truncated };
}
