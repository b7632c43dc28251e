/**
 * Sets an own, enumerable property whatever the key. Plain assignment with a key from a document would call the
 * `__proto__` setter for `"__proto__"` (replacing the prototype and losing the value); this never does.
 */
export function setOwn<T extends object>(target: T, key: string, value: unknown): T {
  // Only `__proto__` is an accessor on Object.prototype: any other key, assigned, becomes an own property (much faster).
  if (key === "__proto__" || !isPlainRecord(target))
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string, unknown>)[key] = value;
  return target;
}

/** An extensible object whose prototype is Object.prototype or null, so assignment can reach no setter but `__proto__`. */
function isPlainRecord(target: object): boolean {
  const prototype = Object.getPrototypeOf(target);
  return (prototype === Object.prototype || prototype === null) && Object.isExtensible(target);
}

/** True for a JSON-style object (not null, not an array), whose properties may then be read by name. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
