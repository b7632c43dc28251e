/** Two list idioms every wing uses: grouping into lists by key, and naming the first few items of a long list. */

/** Adds `value` to the list `groups` holds under `key`, starting the list if there is none (no copy per member). */
export function pushTo<K, V>(groups: Map<K, V[]>, key: K, value: V): void {
  const list = groups.get(key);
  if (list) list.push(value);
  else groups.set(key, [value]);
}

/** The first `shown` items joined by commas, then how many more there are: `a, b, c and 12 more`. */
export function someOf(items: readonly string[], shown: number): string {
  const listed = items.slice(0, shown).join(", ");
  return items.length > shown ? `${listed} and ${items.length - shown} more` : listed;
}
