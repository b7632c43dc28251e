import { isRecord } from "../base/own-property.js";
import type { JsonSchema } from "../base/tool.js";
import { words } from "../base/words.js";

/** One search hit as `search_operations` shows it. */
export interface Hit {
  name: string;
  /** The document's operationId, where the name differs from it (the API's own docs use it). */
  operationId?: string;
  method: string;
  path: string;
  summary: string;
  arguments: string;
  readOnly: boolean;
  destructive: boolean;
  /** The document marks it deprecated. */
  deprecated?: true;
  /** Where the summary's verb contradicts the method: what it says (the method is what the call does). */
  contradiction?: string;
}

/** A page of search results, as `structuredContent` carries it. */
export interface SearchPage {
  results: Hit[];
  total: number;
  nextCursor?: string;
  note?: string;
}

/**
 * The page as a model reads it: one line per operation (number, name, summary, method, what it does to data) and its
 * arguments beneath (`brief`, by result: the required ones, the optional ones named). The JSON in `structuredContent`
 * has each one's path and arguments' types too; `describe_operation` has everything.
 */
export function searchText(page: SearchPage, offset: number, brief: readonly string[]): string {
  const { results, total, nextCursor, note } = page;
  const shown =
    results.length === 0
      ? `No operation matched (${total} in all).`
      : `Operations ${offset + 1}–${offset + results.length} of ${total} matching, best first` +
        (nextCursor === undefined ? "." : `; the next page: cursor "${nextCursor}".`);
  const lines = [shown, ...(note === undefined ? [] : [note])];
  results.forEach((hit, at) => {
    // The operationId where it says more than the name (either is accepted where a name is).
    const id = hit.operationId === undefined || sameWords(hit.operationId, hit.name) ? "" : ` (operationId ${hit.operationId})`;
    const does = effect(hit);
    lines.push(`${offset + at + 1}. ${hit.name}${id} — ${hit.summary} (${hit.method}${does ? `; ${does}` : ""})`);
    lines.push(`   ${hit.arguments === "" ? "needs nothing" : (brief[at] ?? hit.arguments)}`);
  });
  return lines.join("\n");
}

/** What calling it does, where its method does not say: a GET that reads says nothing; deprecated ones say so. */
function effect(hit: Hit): string {
  const what = hit.readOnly ? (hit.method === "GET" ? "" : "reads") : hit.destructive ? "changes or deletes data" : "changes data";
  return [what, hit.deprecated ? "deprecated" : "", hit.contradiction ?? ""].filter((part) => part !== "").join("; ");
}

/** Whether two names spell the same words (`pulls/list` and `pulls_list`). */
function sameWords(a: string, b: string): boolean {
  const spelled = (name: string) => words(name).join(" ");
  return spelled(a) === spelled(b);
}

/**
 * `owner: string, repo: string, page?: integer`: the arguments on one line, required ones first, at most 300
 * characters; a list that does not fit ends after its last whole argument, saying how many more there are.
 */
export function synopsis(schema: JsonSchema): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : []);
  const entries = Object.entries(properties);
  const ordered = [...entries.filter(([name]) => required.has(name)), ...entries.filter(([name]) => !required.has(name))];
  const parts = ordered.map(([name, property]) => `${name}${required.has(name) ? "" : "?"}: ${typeLabel(property)}`);
  const kept: string[] = [];
  for (const [index, part] of parts.entries()) {
    const rest = parts.length - index - 1;
    const tail = rest > 0 ? `, … (${rest} more)` : "";
    const text = [...kept, part].join(", ");
    if ((text + tail).length > 300) break;
    kept.push(part);
  }
  if (kept.length === parts.length) return kept.join(", ");
  const more = `… (${parts.length - kept.length} more)`;
  return kept.length > 0 ? `${kept.join(", ")}, ${more}` : more;
}

/**
 * The arguments as the search text shows them: the required ones (typed where not strings), then the optional ones by
 * name, within about 50 characters; a body's own properties count as arguments. `describe_operation` shows them all.
 */
export function briefArguments(schema: JsonSchema): string {
  // A body property named as a parameter (Telnyx's `call_control_id` in the path and the body) is shown once.
  const names = argumentNames(schema);
  const required = [...new Set(names.required)];
  const optional = [...new Set(names.optional)].filter((name) => !required.some((each) => each.split(":")[0] === name));
  const needed = required.length > 0 ? `needs ${required.join(", ")}` : "needs nothing";
  const shown: string[] = [];
  for (const name of optional) {
    if ([...shown, name].join(", ").length > 48) break;
    shown.push(name);
  }
  const rest = optional.length - shown.length;
  return optional.length === 0 ? needed : `${needed}; optional ${shown.join(", ")}${rest > 0 ? ` +${rest}` : ""}`;
}

/** The required arguments (`name: type` where the type is not a string) and the optional ones' names, a body's opened. */
function argumentNames(schema: JsonSchema, within = ""): { required: string[]; optional: string[] } {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const needed = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : []);
  const required: string[] = [];
  const optional: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    // The body's properties are what a caller fills (Stripe's `body` holds every argument of a create).
    if (within === "" && name === "body" && isRecord(property) && isRecord(property.properties)) {
      const inner = argumentNames(property, " ");
      for (const name of inner.required) required.push(name);
      for (const name of inner.optional) optional.push(name);
      continue;
    }
    const type = typeLabel(property);
    if (needed.has(name)) required.push(type === "string" ? name : `${name}: ${type}`);
    else optional.push(name);
  }
  return { required, optional };
}

/** A short type label for a schema: `string`, `integer[]`, `"a" | "b"`, `object`. */
function typeLabel(schema: unknown): string {
  if (!isRecord(schema)) return "any";
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.length <= 4) {
    return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  }
  const type = Array.isArray(schema.type) ? schema.type.filter((entry) => entry !== "null").join(" | ") : schema.type;
  if (type === "array") return `${typeLabel(schema.items)}[]`;
  if (typeof type === "string" && type !== "") return type;
  return "$ref" in schema || "properties" in schema ? "object" : "any";
}
