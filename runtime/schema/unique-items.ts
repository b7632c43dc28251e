/**
 * `uniqueItems` in linear time. Ajv compares every pair of items whose type it cannot see (objects, or items of no
 * declared type): 20,000 objects took 5 s, and a 4 MB request holds 500,000, which would stall every caller for an
 * hour. Here each item is keyed by its canonical JSON once.
 */
import type { Ajv2020, ErrorObject } from "ajv/dist/2020.js";
import { canonicalJson } from "../base/json-text.js";

/**
 * The repeat Ajv reports: the last item equal to an earlier one (`i`) and the nearest such earlier one (`j`); undefined
 * when every item is unique.
 */
export function repeatedItems(items: readonly unknown[]): { i: number; j: number } | undefined {
  const lastAt = new Map<string, number>();
  let found: { i: number; j: number } | undefined;
  items.forEach((item, index) => {
    const key = canonicalJson(item);
    const earlier = lastAt.get(key);
    if (earlier !== undefined) found = { i: index, j: earlier };
    lastAt.set(key, index);
  });
  return found;
}

/** What `uniqueItems: true` found, in Ajv's words; empty when the items are unique. */
function uniquenessErrors(items: readonly unknown[]): Partial<ErrorObject>[] {
  let repeat: { i: number; j: number } | undefined;
  try {
    repeat = repeatedItems(items);
  } catch {
    // Items nested past the call stack (a result's; arguments are held to 128 levels) cannot be compared.
    return [{ keyword: "uniqueItems", params: {}, message: "must NOT have items nested too deep to compare" }];
  }
  if (repeat === undefined) return [];
  const { i, j } = repeat;
  return [{ keyword: "uniqueItems", params: { i, j }, message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)` }];
}

/** Replaces Ajv's `uniqueItems` with the linear check above (what it accepts and rejects is unchanged). */
export function linearUniqueItems(ajv: Ajv2020): Ajv2020 {
  ajv.removeKeyword("uniqueItems");
  const validate: { (unique: boolean, items: unknown[]): boolean; errors: Partial<ErrorObject>[] } = Object.assign(
    (unique: boolean, items: unknown[]) => {
      validate.errors = unique ? uniquenessErrors(items) : [];
      return validate.errors.length === 0;
    },
    { errors: [] },
  );
  return ajv.addKeyword({ keyword: "uniqueItems", type: "array", schemaType: "boolean", errors: true, validate });
}
