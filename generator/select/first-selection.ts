import type { OperationModel } from "../../openapi/model.js";

/** One resource of an API: its collection path (`/v1/customers`), the item path under it, and how central it is. */
interface Resource {
  name: string;
  collection: string;
  item: string;
  weight: number;
}

/** What a first selection may take: whichever limit comes first. */
export interface SelectionLimits {
  tools: number;
  tokens: number;
}

/**
 * A useful first selection for an API: the core operations (list, read, create, update; never delete) of its most
 * central resources, most central first, within the limits. A resource is central when many operations lie under its
 * path or name it in a parameter (`customer` in Stripe's charges, invoices, payment intents…).
 */
export function firstSelection<T extends { entry: OperationModel; tokens?: number }>(
  listed: readonly T[],
  limits: SelectionLimits,
): { selected: T[]; resources: string[] } {
  const usable = listed.filter((item) => item.entry.operationId !== undefined && item.tokens !== undefined);
  const byRoute = new Map(usable.map((item) => [`${item.entry.method} ${shapeOf(item.entry.path)}`, item]));
  const selected: T[] = [];
  const resources: string[] = [];
  let tokens = 0;
  for (const resource of resourcesOf(usable.map((item) => item.entry))) {
    const core = [
      byRoute.get(`get ${resource.collection}`),
      byRoute.get(`get ${resource.item}`),
      byRoute.get(`post ${resource.collection}`),
      byRoute.get(`patch ${resource.item}`) ?? byRoute.get(`put ${resource.item}`) ?? byRoute.get(`post ${resource.item}`),
    ].filter((item): item is T => item !== undefined && !selected.includes(item));
    if (core.length === 0) continue;
    const size = core.reduce((sum, item) => sum + (item.tokens ?? 0), 0);
    // A resource too large for what is left is passed over: a smaller one after it may still fit.
    if (selected.length + core.length > limits.tools || tokens + size > limits.tokens) continue;
    selected.push(...core);
    resources.push(resource.name);
    tokens += size;
  }
  return { selected, resources };
}

/** A path with its parameters named alike (`/v1/customers/{customer}` → `/v1/customers/{}`), so routes compare. */
function shapeOf(path: string): string {
  return path.replace(/\{[^}]*\}/g, "{}").replace(/\/+$/, "");
}

/** The API's resources, most central first (ties in document order). */
function resourcesOf(operations: readonly OperationModel[]): Resource[] {
  const shapes = operations.map((operation) => shapeOf(operation.path));
  const found = new Map<string, Resource>();
  for (const shape of shapes) {
    const segments = shape.split("/");
    segments.forEach((segment, index) => {
      if (segment === "" || segment === "{}" || /^v\d+(\.\d+)?$|^api$/i.test(segment)) return;
      const collection = segments.slice(0, index + 1).join("/");
      if (!found.has(collection)) found.set(collection, { name: segment, collection, item: `${collection}/{}`, weight: 0 });
    });
  }
  // The names operations take outside their path: `customer` as a filter of charges is a mention; `{customer}` is not.
  const named = operations.map(
    (operation) =>
      new Set(
        operation.parameters.filter((parameter) => parameter.in !== "path").map((parameter) => singular(parameter.name.toLowerCase())),
      ),
  );
  for (const resource of found.values()) {
    const noun = singular(resource.name.toLowerCase());
    const inside = (shape: string) => shape === resource.collection || shape.startsWith(`${resource.collection}/`);
    const under = shapes.filter(inside).length;
    const mentions = named.filter(
      (names, index) => !inside(shapes[index] ?? "") && (names.has(noun) || names.has(`${noun}_id`) || names.has(`${noun}id`)),
    ).length;
    // Nested collections (`/repos/{}/{}/issues`) count a little less than top-level ones: they belong to another.
    const depth = resource.collection.split("/").filter((segment) => segment !== "" && segment !== "{}").length;
    resource.weight = (under + mentions) / Math.sqrt(depth);
  }
  // One resource per name: the most central (`/v1/customers`, not `/v1/test_helpers/customers`).
  const byName = new Map<string, Resource>();
  for (const resource of [...found.values()].sort((a, b) => b.weight - a.weight))
    if (!byName.has(resource.name)) byName.set(resource.name, resource);
  return [...byName.values()];
}

function singular(word: string): string {
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  return word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}
