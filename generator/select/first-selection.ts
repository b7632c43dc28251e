import { pushTo } from "oapi-mcp-gen-runtime";
import type { OperationModel } from "../../openapi/model/index.js";
import { operationAction } from "../base/operation-action.js";
import { everydayAreas } from "./api-areas.js";

/** One resource of an API: the operations its core verbs find, by how central it is. */
interface Resource {
  name: string;
  weight: number;
  /** Its core operations (indexes of the usable ones): its list and read, and its create and update. */
  reads: readonly number[];
  changes: readonly number[];
  /** What changes an item's state besides an update (`/features/{}/environments/{}/on`, `/issues/{}/lock`). */
  actions: readonly number[];
}

/** What a first selection may take: whichever limit comes first. */
export interface SelectionLimits {
  tools: number;
  tokens: number;
}

/** One operation as the selection sees it: its model, its size, and the names its arguments use (a body's included). */
export interface Selectable {
  entry: OperationModel;
  tokens?: number;
  arguments?: readonly string[];
}

/**
 * A useful first selection for an API: the everyday operations (list, read, create, update; nothing deprecated, nothing
 * that deletes or cancels, none of its plumbing, probes or tests: `everydayAreas`) of its most central resources, most central first,
 * within the limits. Resources one lists and creates come first; a resource is central when many operations lie under
 * its path (counted half), name it in an argument (`customer` in Stripe's charges, invoices, payment intents…) or go
 * through it (`/charges/{}/refunds`). An API of RPC methods (`/chat.postMessage`) has its namespaces for resources and
 * the methods' verbs for actions.
 */
export function firstSelection<T extends Selectable>(
  listed: readonly T[],
  limits: SelectionLimits,
): { selected: T[]; resources: string[] } {
  const candidates = listed.filter((item) => item.entry.operationId !== undefined && item.tokens !== undefined && everyday(item.entry));
  const inArea = everydayAreas(candidates);
  const usable = candidates.filter(inArea);
  const selected: T[] = [];
  const resources: string[] = [];
  let tokens = 0;
  const found = rpcStyle(usable.map((item) => item.entry)) ? rpcResources(usable) : restResources(usable);
  const fits = (item: T, share = 1) => selected.length + 1 <= limits.tools && tokens + (item.tokens ?? 0) <= limits.tokens * share;
  const take = (item: T) => {
    selected.push(item);
    tokens += item.tokens ?? 0;
  };
  // The main resources all fit before any grows: first each one's list and read, within a share of the budget.
  const of = (indexes: readonly number[]) => indexes.flatMap((index) => usable[index] ?? []);
  const chosen: Resource[] = [];
  for (const resource of found) {
    const reads = of(resource.reads).filter((item) => !selected.includes(item));
    const [first] = reads;
    // A resource whose list or read does not fit is passed over: a smaller one after it may fit.
    if (first === undefined || !fits(first, READ_SHARE)) continue;
    for (const item of reads) if (fits(item, READ_SHARE)) take(item);
    chosen.push(resource);
    resources.push(resource.name);
  }
  // Then the changes: the most central third's creates and updates, then the others' creates, then their updates.
  const central = Math.ceil(chosen.length / 3);
  const changes = [
    ...chosen.slice(0, central).flatMap((resource) => of(resource.changes)),
    ...[0, 1, 2, 3].flatMap((pass) => chosen.slice(central).flatMap((resource) => of(resource.changes)[pass] ?? [])),
  ];
  for (const item of changes) if (!selected.includes(item) && fits(item)) take(item);
  // Then what changes an item's state (switching it on or off, publishing it), most central first.
  for (const item of chosen.flatMap((resource) => of(resource.actions))) if (!selected.includes(item) && fits(item)) take(item);
  return { selected, resources };
}

/** The share of the token budget the first pass (each resource's list and read) may take. */
const READ_SHARE = 0.6;

/** Whether an operation is of everyday use by itself: current, and not deleting or cancelling (its area is `everydayAreas`'). */
function everyday(entry: OperationModel): boolean {
  if (entry.deprecated || entry.method === "delete") return false;
  const action = operationAction(entry);
  return action !== "delete" && action !== "cancel";
}

/** A path with its parameters named alike (`/v1/customers/{customer}` → `/v1/customers/{}`), so routes compare. */
function shapeOf(path: string): string {
  return path.replace(/\{[^}]*\}/g, "{}").replace(/\/+$/, "");
}

/** `/chat.postMessage`: one segment naming a namespace and a method. */
const RPC_PATH = /^\/[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)+$/;

/** Whether most of the API's paths are RPC methods (Slack's Web API). */
function rpcStyle(operations: readonly OperationModel[]): boolean {
  return operations.length > 0 && operations.filter((operation) => RPC_PATH.test(operation.path)).length >= operations.length * 0.6;
}

/** The verbs of RPC methods for each core action, in the order they are taken (list, read, create, update). */
const RPC_READS: readonly RegExp[] = [/^(?:list|history|replies)/i, /^(?:info|get|lookup)/i];
const RPC_CHANGES: readonly RegExp[] = [/^(?:create|post|send|add|invite)/i, /^(?:update|set|edit)/i];

/** Each namespace of an RPC API (`conversations`, `chat`), weighted by its methods, with its core methods. */
function rpcResources(usable: readonly Selectable[]): Resource[] {
  const byNamespace = new Map<string, number[]>();
  usable.forEach((item, index) => {
    if (!RPC_PATH.test(item.entry.path)) return;
    const parts = item.entry.path.slice(1).split(".");
    const namespace = parts.slice(0, -1).join(".");
    pushTo(byNamespace, namespace, index);
  });
  const verbOf = (index: number) => usable[index]?.entry.path.split(".").at(-1) ?? "";
  return [...byNamespace]
    .map(([name, members]) => ({
      name,
      weight: members.length / Math.sqrt(name.split(".").length),
      // Up to two methods per action (`chat.postMessage` and `chat.postEphemeral`): a namespace's everyday methods.
      reads: RPC_READS.flatMap((verb) => members.filter((index) => verb.test(verbOf(index))).slice(0, 2)),
      changes: RPC_CHANGES.flatMap((verb) => members.filter((index) => verb.test(verbOf(index))).slice(0, 2)),
      actions: [],
    }))
    .sort((a, b) => b.weight - a.weight);
}

/** The API's resources by path, most central first (ties in document order), with their core routes. */
function restResources(usable: readonly Selectable[]): Resource[] {
  const shapes = usable.map((item) => shapeOf(item.entry.path));
  const byRoute = new Map(usable.map((item, index) => [`${item.entry.method} ${shapes[index]}`, index]));
  const found = new Map<string, { name: string; collection: string; weight: number }>();
  for (const shape of shapes) {
    const segments = shape.split("/");
    segments.forEach((segment, index) => {
      if (segment === "" || segment === "{}" || /^v\d+(\.\d+)?$|^api$/i.test(segment)) return;
      const collection = segments.slice(0, index + 1).join("/");
      if (!found.has(collection)) found.set(collection, { name: segment, collection, weight: 0 });
    });
  }
  // The names operations take outside their path: `customer` as a filter of charges or a field of a refund is a
  // mention; `{customer}` is not.
  const named = usable.map(
    (item) =>
      new Set(
        [
          ...item.entry.parameters.filter((parameter) => parameter.in !== "path").map((parameter) => parameter.name),
          ...(item.arguments ?? []),
        ]
          .map((name) => singular(name.toLowerCase()))
          .filter((name) => !PAGING.has(name)),
      ),
  );
  // Counted once for all resources, not once per resource (8,000 routes took 20 s): the routes at or under each
  // collection, and the operations that mention each noun.
  const under = routesUnder(shapes);
  const mentioning = nounsMentioned(shapes, named);
  for (const resource of found.values()) {
    const noun = singular(resource.name.toLowerCase());
    const inside = (shape: string) => shape === resource.collection || shape.startsWith(`${resource.collection}/`);
    // A mention: an argument that names it, or a path of another resource that goes through it (`/charges/{}/refunds`).
    const mentions = (mentioning.get(noun) ?? []).filter((index) => !inside(shapes[index] ?? "")).length;
    // Nested collections (`/repos/{}/{}/issues`) count a little less than top-level ones: they belong to another.
    const depth = depthOf(resource.collection);
    // What lies under it counts half: a sub-API (Stripe's connected accounts) is not for that the centre of everyday use.
    resource.weight = ((under.get(resource.collection) ?? 0) / 2 + mentions) / Math.sqrt(depth);
  }
  // One resource per name (`issues` of a repository and of the caller).
  const route = (method: string, path: string) => byRoute.get(`${method} ${path}`);
  const coreOf = (collection: string) => {
    // An item is one parameter under its collection, or two (`/repos/{owner}/{repo}`).
    const item = route("get", `${collection}/{}`) !== undefined ? `${collection}/{}` : `${collection}/{}/{}`;
    const list = route("get", collection);
    const create = route("post", collection);
    const present = (indexes: (number | undefined)[]) => indexes.filter((index): index is number => index !== undefined);
    return {
      reads: present([list, route("get", item)]),
      changes: present([create, route("patch", item) ?? route("put", item) ?? route("post", item)]),
      actions: actionsUnder(item),
      full: list !== undefined && create !== undefined,
    };
  };
  // What acts on an item without being a collection of its own: a POST or PUT on a route under it that nothing lists
  // (`/features/{}/environments/{}/on`); two at most.
  const listed = new Set(usable.flatMap((item, index) => (item.entry.method === "get" ? [shapes[index]] : [])));
  // Each such action, filed once under every route above it (a document's operations times its depth, not squared).
  const actions = new Map<string, number[]>();
  for (const [index, entry] of usable.entries()) {
    const shape = shapes[index] ?? "";
    if ((entry.entry.method !== "post" && entry.entry.method !== "put") || shape.endsWith("{}") || listed.has(shape)) continue;
    for (let end = shape.indexOf("/", 1); end !== -1; end = shape.indexOf("/", end + 1)) {
      const above = actions.get(shape.slice(0, end)) ?? [];
      if (above.length < 2) actions.set(shape.slice(0, end), [...above, index]);
    }
  }
  const actionsUnder = (item: string) => actions.get(item) ?? [];
  // Of a name's collections, the most central, or a less central one that is listed and created there
  // (`/repos/{}/{}/issues` over `/issues`, which only lists); the name weighs what its most central collection does.
  const byName = new Map<string, Resource & { full: boolean }>();
  for (const resource of [...found.values()].sort((a, b) => b.weight - a.weight)) {
    const key = resource.name;
    const core = coreOf(resource.collection);
    const held = byName.get(key);
    if (held === undefined) byName.set(key, { name: resource.name, weight: resource.weight, ...core });
    else if (!held.full && core.full && resource.weight >= held.weight / 4 && depthOf(resource.collection) <= 2) Object.assign(held, core);
  }
  // The main resources are those one lists and creates: they come first, then the rest, each most central first.
  const ranked = [...byName.values()].sort((a, b) => Number(b.full) - Number(a.full) || b.weight - a.weight);
  return ranked;
}

/** How many routes lie at or under each of their paths' prefixes (`/charges`, `/charges/{}`, …). */
function routesUnder(shapes: readonly string[]): Map<string, number> {
  const under = new Map<string, number>();
  for (const shape of shapes) {
    let prefix: string | undefined;
    for (const segment of shape.split("/")) {
      prefix = prefix === undefined ? segment : `${prefix}/${segment}`;
      under.set(prefix, (under.get(prefix) ?? 0) + 1);
    }
  }
  return under;
}

/**
 * The operations that mention each noun: by an argument named for it (`customer`, `customer_id`, `customerid`) or by
 * a segment of their path.
 */
function nounsMentioned(shapes: readonly string[], named: readonly ReadonlySet<string>[]): Map<string, number[]> {
  const mentioning = new Map<string, number[]>();
  named.forEach((names, index) => {
    const nouns = new Set<string>();
    for (const name of names) {
      nouns.add(name);
      if (name.endsWith("_id")) nouns.add(name.slice(0, -3));
      if (name.endsWith("id")) nouns.add(name.slice(0, -2));
    }
    for (const segment of (shapes[index] ?? "").split("/")) nouns.add(singular(segment.toLowerCase()));
    for (const noun of nouns) pushTo(mentioning, noun, index);
  });
  return mentioning;
}

/** How many named segments a collection's path has, a version (`v1`) or `api` not counted. */
function depthOf(collection: string): number {
  return collection.split("/").filter((segment) => segment !== "" && segment !== "{}" && !/^v\d+(\.\d+)?$|^api$/i.test(segment)).length;
}

/** Arguments that page, sort or shape a list: a `page` argument is no mention of GitHub Pages. */
const PAGING = new Set([
  "page",
  "per_page",
  "limit",
  "offset",
  "cursor",
  "sort",
  "direction",
  "order",
  "field",
  "expand",
  "include",
  "q",
  "query",
  "format",
]);

function singular(word: string): string {
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  return word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}
