import { isJsonObject, type JsonObject, type JsonValue } from "../document/index.js";
import { collectRefs, refName, resolvePointer } from "./refs.js";

const SCHEMA_REF = "#/components/schemas/";

/** How many JSON nodes inlining may produce for one view: depth alone does not bound fan-out (10 refs × 10 × 10 …). */
export const MAX_INLINED_NODES = 20_000;

/** What inlining may still produce, whether it stopped early, and each target's size (measured once). */
interface InlineBudget {
  remaining: number;
  exhausted: boolean;
  sizes: Map<string, number>;
}

/** An object with schema `$ref`s replaced by their targets, and whether the node budget let it finish. */
export interface Inlined {
  value: JsonObject;
  complete: boolean;
}

/**
 * Inlines component-schema references in an object built from `document` up to `depth` levels, within the node
 * budget; once it is spent the remaining `$ref`s stay as they are. Schemas named in `stack` are not entered again.
 */
export function inlineSchemas(document: JsonValue, view: JsonObject, depth: number, stack: ReadonlySet<string> = new Set()): Inlined {
  const budget: InlineBudget = { remaining: MAX_INLINED_NODES, exhausted: false, sizes: new Map() };
  const inlined = inlineWithin(document, view, depth, stack, budget);
  return { value: isJsonObject(inlined) ? inlined : view, complete: !budget.exhausted };
}

/** Names of the component schemas a value refers to directly: what a caller may fetch next. */
export function referencedSchemas(value: JsonValue): string[] {
  const names = new Set<string>();
  collectRefs(value, (ref) => {
    if (ref.startsWith(SCHEMA_REF)) names.add(refName(ref));
  });
  return [...names].sort();
}

/** JSON nodes in a value (iteratively). */
function nodeCount(value: JsonValue): number {
  let count = 0;
  const stack: JsonValue[] = [value];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    count++;
    if (typeof node === "object" && node !== null) for (const child of Object.values(node)) stack.push(child);
  }
  return count;
}

/** Replaces schema `$ref`s by their targets up to `depth` levels; a cycle keeps its `$ref` and says so. */
function inlineWithin(document: JsonValue, value: JsonValue, depth: number, stack: ReadonlySet<string>, budget: InlineBudget): JsonValue {
  if (depth <= 0) return value;
  budget.remaining--;
  if (Array.isArray(value)) return value.map((item) => inlineWithin(document, item, depth, stack, budget));
  if (!isJsonObject(value)) return value;
  const ref = typeof value.$ref === "string" ? value.$ref : undefined;
  if (ref?.startsWith(SCHEMA_REF)) {
    const name = refName(ref);
    if (stack.has(name)) return { ...value, "x-circular": true };
    const target = resolvePointer(document, ref);
    if (!isJsonObject(target)) return value;
    // Every copy of a target costs its whole size, whether or not its own references are inlined in turn.
    let size = budget.sizes.get(ref);
    if (size === undefined) {
      size = nodeCount(target);
      budget.sizes.set(ref, size);
    }
    if (size > budget.remaining) {
      budget.exhausted = true;
      return value;
    }
    budget.remaining -= size;
    const { $ref: _, ...siblings } = value;
    return inlineWithin(document, { ...target, ...siblings }, depth - 1, new Set([...stack, name]), budget);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inlineWithin(document, item, depth, stack, budget)]));
}
