/**
 * Sets an own, enumerable property whatever the key. Plain assignment with a key from a document would call the
 * `__proto__` setter for `"__proto__"` (replacing the prototype and losing the value); this never does.
 */
export function setOwn<T extends object>(target: T, key: string, value: unknown): T {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

/** True for a JSON-style object (not null, not an array), whose properties may then be read by name. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
