/**
 * Sets an own, enumerable property whatever the key. Plain assignment with a key from a document would call the
 * `__proto__` setter for `"__proto__"` (replacing the prototype and losing the value); this never does.
 */
export function setOwn<T extends object>(target: T, key: string, value: unknown): T {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}
