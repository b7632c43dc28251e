/** Which operation supplies the id another one needs: the list of the collection the id's path segment names. */
import type { ToolDefinition } from "../base/tool.js";

/** A path parameter that names an object by an id the API made (`invoiceId`, `user_gid`, `{id}`), not by a user's name. */
const ID_PARAMETER = /(?:^|_|[a-z])(?:id|Id|ID|gid|uuid|Uuid|UUID|sid|Sid)$|^(?:id|index|number)$/;

/** One id an operation needs, and the operation whose results carry it. */
export interface IdSupplier {
  readonly parameter: string;
  readonly supplier: string;
}

/**
 * For each tool (by name), the ids its path needs that a list of their collection supplies: `GET /invoices/{invoiceId}/payments`
 * needs `invoiceId`, which `GET /invoices` lists. Only the collection's own list counts (a GET of the path before the
 * id's segment), and a parameter the tool's path and its list share (`owner`, `repo`) is no id to find. What the
 * document's links say (`linked`) comes first, and stands for the list for the same parameter.
 */
export function idSuppliers(
  tools: readonly ToolDefinition[],
  linked: Readonly<Record<string, readonly IdSupplier[]>> = {},
): Map<string, IdSupplier[]> {
  const lists = new Map<string, string>();
  for (const tool of tools) if (tool._meta.method.toUpperCase() === "GET") lists.set(routeShape(tool._meta.path), tool.name);
  const found = new Map<string, IdSupplier[]>();
  for (const tool of tools) {
    const segments = tool._meta.path.split("/");
    const suppliers: IdSupplier[] = [...(Object.hasOwn(linked, tool.name) ? (linked[tool.name] ?? []) : [])];
    segments.forEach((segment, at) => {
      const parameter = /^\{([^}]+)\}$/.exec(segment)?.[1];
      if (parameter === undefined || !ID_PARAMETER.test(parameter)) return;
      if (suppliers.some((each) => each.parameter === parameter)) return;
      const supplier = lists.get(routeShape(segments.slice(0, at).join("/")));
      if (supplier !== undefined && supplier !== tool.name) suppliers.push({ parameter, supplier });
    });
    if (suppliers.length > 0) found.set(tool.name, suppliers);
  }
  return found;
}

/** A path with its parameters' names left out, so `/a/{x}/b` and `/a/{y}/b` are one route. */
function routeShape(path: string): string {
  return path.replace(/\{[^}]*\}/g, "{}").replace(/\/+$/, "");
}

/** What a result line says of the ids it needs: `invoiceId from list_invoices (result 2)`; "" when none is supplied. */
export function suppliedIds(suppliers: readonly IdSupplier[] | undefined, shownAt: ReadonlyMap<string, number>): string {
  if (suppliers === undefined || suppliers.length === 0) return "";
  const parts = suppliers.map(({ parameter, supplier }) => {
    const at = shownAt.get(supplier);
    return `${parameter} from ${supplier}${at === undefined ? "" : ` (result ${at})`}`;
  });
  return `; ${parts.join(", ")}`;
}
