import { isJsonObject, type JsonObject, type JsonValue, type OpenApiDocument } from "../document/index.js";
import { collectRefs, encodeToken, resolvePointer } from "../references/index.js";
import type { OperationModel } from "./model.js";

/** A copy of the document holding only the selected operations and the components they reach. */
export function pruneDocument(document: OpenApiDocument, entries: readonly OperationModel[]): OpenApiDocument {
  const paths: JsonObject = {};
  const reached = new Set<string>();
  const pending: JsonValue[] = [];
  const sourcePaths = isJsonObject(document.paths) ? document.paths : {};
  for (const entry of entries) {
    const sourceItem = sourcePaths[entry.path];
    const existing = Object.hasOwn(paths, entry.path) ? paths[entry.path] : undefined;
    const item: JsonObject = isJsonObject(existing) ? existing : {};
    // An own property even for a path named `__proto__`.
    Object.defineProperty(paths, entry.path, { value: item, enumerable: true, writable: true, configurable: true });
    if (isJsonObject(sourceItem) && sourceItem.parameters !== undefined) item.parameters = sourceItem.parameters;
    item[entry.method] = entry.declared;
    pending.push(item);
  }
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    collectRefs(next, (ref) => {
      if (reached.has(ref) || !ref.startsWith("#/components/")) return;
      reached.add(ref);
      // A reference into a component (`#/components/schemas/A/properties/b`) keeps the whole component.
      const component = ref.split("/").slice(0, 4).join("/");
      if (!reached.has(component)) {
        reached.add(component);
        const whole = resolvePointer(document, component);
        if (whole !== undefined) pending.push(whole);
      }
      const target = resolvePointer(document, ref);
      if (target !== undefined) pending.push(target);
    });
  }
  const pruned: OpenApiDocument = { openapi: document.openapi, info: document.info ?? {}, paths };
  const components = pickComponents(document, reached);
  if (components) pruned.components = components;
  return pruned;
}

/** Keeps the reached `#/components/<kind>/<name>` entries, in document order. */
function pickComponents(document: OpenApiDocument, reached: ReadonlySet<string>): JsonObject | undefined {
  if (!isJsonObject(document.components)) return undefined;
  const out: JsonObject = {};
  for (const [kind, group] of Object.entries(document.components)) {
    if (!isJsonObject(group)) continue;
    const kept = Object.entries(group).filter(([name]) => reached.has(`#/components/${kind}/${encodeToken(name)}`));
    if (kept.length > 0) out[kind] = Object.fromEntries(kept);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
