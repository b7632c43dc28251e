import { isJsonObject, type JsonObject } from "../../openapi/document/index.js";

/** Keywords whose values are data, not schemas: a `$ref` key inside them is not a reference. */
const DATA_KEYWORDS = new Set(["examples", "default", "const", "enum", "example"]);

/** Keywords whose values map names to schemas: there a key such as `default` names a property, not data. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/** Calls `visit` with every `$ref` in schema positions (not inside examples, defaults, consts or enums). */
export function schemaRefs(root: JsonObject, visit: (ref: string) => void): void {
  const stack: { node: unknown; map: boolean }[] = [{ node: root, map: false }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { node, map } = entry;
    if (Array.isArray(node)) for (const item of node) stack.push({ node: item, map: false });
    else if (isJsonObject(node)) {
      if (!map && typeof node.$ref === "string") visit(node.$ref);
      // A key loop, not Object.entries: no pair arrays for every keyword of 2,446 schemas.
      for (const key in node) {
        const value = node[key];
        if (!Object.hasOwn(node, key) || typeof value !== "object" || value === null || (!map && DATA_KEYWORDS.has(key))) continue;
        stack.push({ node: value, map: !map && SCHEMA_MAPS.has(key) });
      }
    }
  }
}

/** The `$defs` key a `#/$defs/Name` reference names, or undefined for any other reference. */
export function defsKey(ref: string): string | undefined {
  const name = ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined;
  return name === undefined || name.includes("/") ? undefined : name;
}
