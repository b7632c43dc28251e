import { isJsonObject, type JsonObject, type JsonValue } from "../document/index.js";

/** `valueOf`, `hasOwnProperty`, …: names Redocly's resolver (inside openapi-typescript) looks up on plain objects. */
const PROTOTYPE_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));
const MARK = "__oapiMcpGenKey_";

/**
 * Renames object keys that are `Object.prototype` member names (and the `$ref` tokens, `required` entries and
 * discriminator property names that spell them) to marked placeholders, in place: openapi-typescript's resolver
 * crashes on a property named `valueOf`. `restore` turns the placeholders in the generated text back. `text`: the
 * document's JSON text, or that of a document it was cut down from.
 */
export function maskPrototypeKeys(document: JsonObject, text = JSON.stringify(document)): { restore(text: string): string } {
  const unchanged = { restore: (text: string) => text };
  // A document that spells the mark itself is left as it is: restoring would change its own names.
  if (text.includes(MARK)) return unchanged;
  let masked = false;
  const mask = (name: string) => {
    if (!PROTOTYPE_MEMBERS.has(name)) return name;
    masked = true;
    return `${MARK}${name}`;
  };
  const stack: JsonValue[] = [document];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    if (!isJsonObject(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") node.$ref = value.split("/").map(mask).join("/");
      if (key === "required" && Array.isArray(value)) node.required = value.map((item) => (typeof item === "string" ? mask(item) : item));
      if (key === "propertyName" && typeof value === "string") node.propertyName = mask(value);
      const renamed = mask(key);
      if (renamed !== key) {
        delete node[key];
        Object.defineProperty(node, renamed, { value, enumerable: true, writable: true, configurable: true });
      }
      if (typeof value === "object" && value !== null) stack.push(value);
    }
  }
  if (!masked) return unchanged;
  return { restore: (text) => text.replaceAll(MARK, "") };
}
