import { DocumentParseError, eachObject, isJsonObject, type JsonObject, type JsonValue } from "../document/index.js";

/** Decodes one JSON Pointer token. @see https://www.rfc-editor.org/rfc/rfc6901 */
export function decodeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Encodes a name as one JSON Pointer token (`a/b` → `a~1b`). */
export function encodeToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Looks up a local `#/…` reference; undefined when it points nowhere or is not local. */
export function resolvePointer(document: JsonValue, ref: string): JsonValue | undefined {
  if (!ref.startsWith("#")) return undefined;
  const pointer = ref.slice(1);
  if (pointer === "") return document;
  if (!pointer.startsWith("/")) return undefined;
  let node: JsonValue | undefined = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = decodeToken(safeDecodeURIComponent(raw));
    if (Array.isArray(node)) {
      node = /^(0|[1-9][0-9]*)$/.test(token) ? node[Number(token)] : undefined;
    } else if (isJsonObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}

function safeDecodeURIComponent(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The `$ref` string of a reference object, if the node is one. */
export function refOf(node: JsonValue | undefined): string | undefined {
  return isJsonObject(node) && typeof node.$ref === "string" ? node.$ref : undefined;
}

/** The name a `#/components/schemas/Name` (or `#/definitions/Name`) reference ends with. */
export function refName(ref: string): string {
  const last = ref.slice(ref.lastIndexOf("/") + 1);
  return decodeToken(safeDecodeURIComponent(last));
}

/** Follows a chain of reference objects to the node it ends at; throws on a dangling or circular chain. */
export function derefObject(document: JsonValue, node: JsonValue | undefined): JsonObject | undefined {
  const seen = new Set<string>();
  let current = node;
  for (let ref = refOf(current); ref !== undefined; ref = refOf(current)) {
    if (seen.has(ref)) throw new DocumentParseError(`circular $ref chain at ${ref}`);
    seen.add(ref);
    current = resolvePointer(document, ref);
    if (current === undefined) throw new DocumentParseError(`unresolvable $ref ${ref}`);
  }
  return isJsonObject(current) ? current : undefined;
}

/** The reference a discriminator mapping value stands for: a `#…` pointer, a schema name, or another file. */
export function mappingRef(value: string): string {
  return value.startsWith("#") || /[/.]/.test(value) ? value : `#/components/schemas/${encodeToken(value)}`;
}

/** Calls `visit` with every `$ref` string below a node (iteratively, so deep documents cannot overflow the stack). */
export function collectRefs(root: JsonValue, visit: (ref: string) => void): void {
  eachObject(root, (node) => {
    if (typeof node.$ref === "string") visit(node.$ref);
    // Discriminator mappings name schemas too; a pruned document must keep them.
    const mapping = isJsonObject(node.discriminator) && isJsonObject(node.discriminator.mapping) ? node.discriminator.mapping : undefined;
    if (mapping) for (const target of Object.values(mapping)) if (typeof target === "string") visit(mappingRef(target));
  });
}
