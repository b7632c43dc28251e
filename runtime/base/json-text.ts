/** JSON texts of objects already serialised: a list's tools share their definitions' objects, so each is written once. */
const texts = new WeakMap<object, string>();

/** `JSON.stringify(value)`, kept for an object (which must not change afterwards). */
export function jsonText(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "undefined";
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

/** A value's JSON with every object's keys sorted: equal for two values exactly when JSON Schema calls them equal. */
export function canonicalJson(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(Reflect.get(value, key))}`).join(",")}}`;
}

/** Whether `JSON.stringify(value)` would be longer than `limit` characters, found without writing more than that. */
export function jsonLongerThan(value: unknown, limit: number): boolean {
  let length = 0;
  const walk = (node: unknown): boolean => {
    if (typeof node === "string") length += node.length + 2;
    else if (typeof node !== "object" || node === null) length += String(node).length;
    else if (Array.isArray(node)) {
      length += 1 + node.length;
      for (const item of node) if (walk(item)) return true;
    } else {
      length += 1;
      for (const [key, item] of Object.entries(node)) {
        length += key.length + 4;
        if (walk(item)) return true;
      }
    }
    return length > limit;
  };
  return walk(value);
}

/**
 * Text (JSON, code) with U+2028/9 and every invisible format character (bidirectional overrides, zero-width marks: what
 * makes text read otherwise than it is) written as its `\u` escape, each UTF-16 unit (two for a mark beyond the BMP):
 * the same value wherever JSON or code reads it, and nothing a reader cannot see.
 */
export function withEscapedMarks(text: string): string {
  return text.replace(/[\u2028\u2029\p{Cf}]/gu, (mark) =>
    [...Array(mark.length).keys()].map((at) => `\\u${mark.charCodeAt(at).toString(16).padStart(4, "0")}`).join(""),
  );
}
