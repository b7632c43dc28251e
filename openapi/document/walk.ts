import { isJsonObject, type JsonObject } from "./types.js";

/**
 * Calls `visit` on every object of a JSON tree, each before its children (which it may change), depth first with the
 * last child first; stops, returning true, once `visit` returns true. Iterative, so no depth overflows the stack, and
 * children are pushed one by one: spreading an array of 200,000 enum values into `push` overflows it.
 */
export function eachObject(root: unknown, visit: (node: JsonObject) => unknown): boolean {
  const stack: unknown[] = [root];
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (isJsonObject(value)) {
      if (visit(value) === true) return true;
      // A key loop, not Object.values: no array of values for each of a document's objects.
      for (const key in value) {
        const child = value[key];
        if (Object.hasOwn(value, key) && typeof child === "object" && child !== null) stack.push(child);
      }
    }
  }
  return false;
}
