import { DocumentParseError } from "./parse-error.js";

/** Deeper than this, a document is refused: real ones nest a few dozen levels, and every later stage recurses. */
export const MAX_DOCUMENT_DEPTH = 400;

/**
 * Refuses a parsed document that nests too deep or, when YAML aliases made parts of it shared, whose expanded size
 * (every shared part counted each time it appears, as every later stage will walk it) exceeds `maxNodes`; a
 * self-referencing alias is refused too. One pass, each shared part measured once.
 */
export function checkDocumentShape(value: unknown, source: string, options: { maxNodes: number; shared: boolean }): void {
  // Without shared parts the size is bounded by the text: only depth can fail, found here by a bare walk; the full
  // measure below runs only to say where.
  if (!options.shared && !nestsDeeper(value, 0)) return;
  const sizes = new Map<object, number>();
  const active = new Set<object>();
  const keys: string[] = [];
  const where = () => (keys.length === 0 ? "the top level" : `/${keys.slice(0, 12).join("/")}${keys.length > 12 ? "/…" : ""}`);
  const measure = (node: unknown, depth: number): number => {
    if (typeof node !== "object" || node === null) return 1;
    if (depth > MAX_DOCUMENT_DEPTH)
      throw new DocumentParseError(`${source}: nested deeper than ${MAX_DOCUMENT_DEPTH} levels at ${where()}`);
    if (options.shared) {
      const known = sizes.get(node);
      if (known !== undefined) return known;
      if (active.has(node)) throw new DocumentParseError(`${source}: a YAML alias contains itself at ${where()}`);
      active.add(node);
    }
    let size = 1;
    for (const [key, child] of Object.entries(node)) {
      keys.push(key.length > 40 ? `${key.slice(0, 39)}…` : key);
      size += measure(child, depth + 1);
      keys.pop();
      if (size > options.maxNodes) {
        throw new DocumentParseError(
          `${source}: YAML aliases expand the document past ${options.maxNodes} values (at ${where()}); inline what they share or use fewer aliases`,
        );
      }
    }
    if (options.shared) {
      active.delete(node);
      sizes.set(node, size);
    }
    return size;
  };
  measure(value, 0);
}

/** Whether a value nests deeper than MAX_DOCUMENT_DEPTH (a walk that keeps no path, for the common case). */
function nestsDeeper(node: unknown, depth: number): boolean {
  if (typeof node !== "object" || node === null) return false;
  if (depth > MAX_DOCUMENT_DEPTH) return true;
  if (Array.isArray(node)) return node.some((item) => nestsDeeper(item, depth + 1));
  for (const key in node) if (nestsDeeper(Reflect.get(node, key), depth + 1)) return true;
  return false;
}
