import { isJsonObject, type JsonObject, type JsonValue } from "../document/index.js";

const SCHEMAS = "#/components/schemas/";

/**
 * Cuts the references by which a component schema reaches itself without passing through an object's properties
 * (Vercel's `EdgeConfigItemValue`: a string, …, or an array of itself). openapi-typescript writes those as
 * `components["schemas"]["X"][]` inside X's own type, which TypeScript cannot resolve (TS2502); a reference under a
 * property is deferred and compiles. The cut reference is typed `unknown`; only the typing input changes.
 */
export function cutEagerCycles(document: JsonObject): void {
  const components = isJsonObject(document.components) ? document.components : undefined;
  const schemas = components && isJsonObject(components.schemas) ? components.schemas : undefined;
  if (schemas === undefined) return;
  const state = new Map<string, "open" | "done">();
  const visit = (name: string): void => {
    state.set(name, "open");
    for (const holder of eagerReferences(Object.hasOwn(schemas, name) ? schemas[name] : undefined)) {
      const target = componentName(holder.$ref);
      if (target === undefined || !Object.hasOwn(schemas, target)) continue;
      if (state.get(target) === "open") delete holder.$ref;
      else if (!state.has(target)) visit(target);
    }
    state.set(name, "done");
  };
  for (const name of Object.keys(schemas)) if (!state.has(name)) visit(name);
}

/** The objects holding a `$ref` that a schema's own type is made of: itself, its alternatives and its array items. */
function eagerReferences(schema: JsonValue | undefined): JsonObject[] {
  const found: JsonObject[] = [];
  const stack: (JsonValue | undefined)[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isJsonObject(node)) continue;
    if (typeof node.$ref === "string") found.push(node);
    for (const keyword of ["allOf", "anyOf", "oneOf", "prefixItems"] as const) {
      const list = node[keyword];
      if (Array.isArray(list)) for (const item of list) stack.push(item);
    }
    if (Array.isArray(node.items)) for (const item of node.items) stack.push(item);
    else stack.push(node.items);
  }
  return found;
}

/** The component a local reference names (`#/components/schemas/Pet` → Pet), or undefined. */
function componentName(ref: JsonValue | undefined): string | undefined {
  if (typeof ref !== "string" || !ref.startsWith(SCHEMAS)) return undefined;
  const name = ref.slice(SCHEMAS.length);
  return name.includes("/") ? undefined : name.replaceAll("~1", "/").replaceAll("~0", "~");
}
