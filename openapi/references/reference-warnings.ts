import type { JsonValue } from "../document/index.js";
import { collectRefs, resolvePointer } from "./refs.js";

/** Warns about `$ref`s that point nowhere in the document and about external ones, which are not followed. */
export function referenceWarnings(document: JsonValue): string[] {
  const dangling = new Set<string>();
  const external = new Set<string>();
  collectRefs(document, (ref) => {
    if (!ref.startsWith("#")) external.add(ref);
    else if (resolvePointer(document, ref) === undefined) dangling.add(ref);
  });
  const listed = (refs: Set<string>) => `${[...refs].slice(0, 5).join(", ")}${refs.size > 5 ? ", …" : ""}`;
  const warnings: string[] = [];
  if (dangling.size > 0) warnings.push(`${dangling.size} unresolvable $ref(s): ${listed(dangling)}`);
  if (external.size > 0) warnings.push(`${external.size} external $ref(s) are not followed: ${listed(external)}`);
  return warnings;
}
