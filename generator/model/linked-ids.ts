import type { IdSupplier } from "oapi-mcp-gen-runtime/discovery";
import { isJsonObject, type JsonObject, type OpenApiDocument } from "../../openapi/document/index.js";
import type { OperationModel } from "../../openapi/model/index.js";
import { decodeToken, derefObject } from "../../openapi/references/index.js";

/** A link parameter's name may say where the parameter goes (`path.userId`): the name is what follows. */
const PLACED = /^(?:path|query|header|cookie)\./;

/**
 * For each tool (by name), the ids the document's OpenAPI `links` say another operation's response supplies:
 * `POST /users` links `userId: $response.body#/id` to `getUser`, so getUser's `userId` comes from the create.
 * Only links between the served operations, from a successful response's body or headers, count.
 */
export function linkedSuppliers(
  document: OpenApiDocument,
  operations: readonly OperationModel[],
  toolNames: readonly string[],
): Record<string, IdSupplier[]> {
  const nameOf = new Map(operations.map((operation, at) => [operation, toolNames[at] ?? ""] as const));
  const byOperationId = new Map(
    operations.flatMap((operation) => (operation.operationId ? [[operation.operationId, operation] as const] : [])),
  );
  const byRoute = new Map(operations.map((operation) => [`${operation.method} ${operation.path}`, operation] as const));
  const found = new Map<string, IdSupplier[]>();
  for (const source of operations) {
    const supplier = nameOf.get(source) ?? "";
    for (const response of source.responses) {
      if (!/^2/.test(response.status)) continue;
      const links = isJsonObject(response.declared.links) ? response.declared.links : {};
      for (const declared of Object.values(links)) {
        const link = safeDeref(document, declared);
        const target = link && targetOf(link, byOperationId, byRoute);
        const name = target && nameOf.get(target);
        if (!link || !name || name === supplier || !isJsonObject(link.parameters)) continue;
        for (const [parameter, expression] of Object.entries(link.parameters)) {
          if (typeof expression !== "string" || !/^\$response\.(?:body|header)/.test(expression)) continue;
          const named = parameter.replace(PLACED, "");
          // A name the target does not take is a mistake of the document's: it supplies nothing.
          if (!target.parameters.some((each) => each.name === named)) continue;
          const known = found.get(name) ?? [];
          if (!known.some((each) => each.parameter === named)) found.set(name, [...known, { parameter: named, supplier }]);
        }
      }
    }
  }
  return Object.fromEntries(found);
}

/** The operation a link targets: by `operationId`, or by an `operationRef` into this document's paths. */
function targetOf(
  link: JsonObject,
  byOperationId: ReadonlyMap<string, OperationModel>,
  byRoute: ReadonlyMap<string, OperationModel>,
): OperationModel | undefined {
  if (typeof link.operationId === "string") return byOperationId.get(link.operationId);
  const pointer = typeof link.operationRef === "string" ? /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(link.operationRef) : null;
  return pointer ? byRoute.get(`${pointer[2]} ${decodeToken(safeDecode(pointer[1] ?? ""))}`) : undefined;
}

/** A URI's percent-encoding undone (`%7BuserId%7D`), or the text as it is where it is no valid encoding. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A `$ref` resolved, or nothing where it points nowhere (a link is a hint: a broken one is left out). */
function safeDeref(document: OpenApiDocument, node: unknown): JsonObject | undefined {
  try {
    return derefObject(document, node as JsonObject);
  } catch {
    return undefined;
  }
}
