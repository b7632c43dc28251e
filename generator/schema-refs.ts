import { isJsonObject, type JsonObject } from "../openapi/types.js";

/** Keywords whose values are data, not schemas: a `$ref` key inside them is not a reference. */
const DATA_KEYWORDS = new Set(["examples", "default", "const", "enum", "example"]);

/** Calls `visit` with every `$ref` in schema positions (not inside examples, defaults, consts or enums). */
export function schemaRefs(root: JsonObject, visit: (ref: string) => void): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isJsonObject(node)) {
      if (typeof node.$ref === "string") visit(node.$ref);
      for (const [key, value] of Object.entries(node)) if (!DATA_KEYWORDS.has(key) && typeof value === "object") stack.push(value);
    }
  }
}

/** The `$defs` key a `#/$defs/Name` reference names, or undefined for any other reference. */
export function defsKey(ref: string): string | undefined {
  const name = ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined;
  return name === undefined || name.includes("/") ? undefined : name;
}
