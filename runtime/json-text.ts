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
