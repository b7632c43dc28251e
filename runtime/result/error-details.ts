import { isRecord } from "../base/own-property.js";

/** At most this many of an answer's details are shown, each at most this long, all within the message's budget. */
const MAX_DETAILS = 10;
const MAX_DETAIL_LENGTH = 240;

/** Where an error body lists what was wrong: RFC 9457's `invalid-params`, and the names APIs give such lists. */
const LISTS = ["details", "errors", "invalid-params", "invalidParams", "violations", "fieldErrors", "validationErrors", "issues"];
/** What one entry says was wrong, and where. */
const SAYS = ["message", "description", "detail", "reason", "msg", "title", "error_description", "error"];
const WHERE = ["field", "param", "parameter", "path", "pointer", "name", "property", "location", "loc", "instancePath", "key"];

/** One entry of a list of details, as a line: `where: what` (or its code, or its JSON, when it says nothing in words). */
function entryText(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (!isRecord(entry)) return undefined;
  // Google's errors carry their own lists inside each detail (`fieldViolations`), Directus its field in `extensions`.
  const nested = ["fieldViolations", "violations"].flatMap((key) => (Array.isArray(entry[key]) ? entry[key] : []));
  if (nested.length > 0) return nested.map(entryText).filter(Boolean).join("; ");
  const extensions = isRecord(entry.extensions) ? entry.extensions : {};
  const said = SAYS.map((key) => entry[key]).find((value) => typeof value === "string" && value.trim() !== "");
  const place = [...WHERE.map((key) => entry[key]), ...WHERE.map((key) => extensions[key])].find(
    (value) => (typeof value === "string" && value !== "") || (Array.isArray(value) && value.length > 0),
  );
  const where = Array.isArray(place) ? place.join(".") : typeof place === "string" ? place : undefined;
  const code = [entry.code, entry.errorCode, extensions.code, entry.type].find((value) => typeof value === "string");
  const what = typeof said === "string" ? said.trim() : typeof code === "string" ? code : undefined;
  if (what === undefined) return JSON.stringify(entry);
  return where !== undefined && !what.includes(where) ? `${where}: ${what}` : what;
}

/** The entries of a field map (`{ "Name": ["is required"] }`, as ASP.NET Core and Rails write `errors`). */
function mapEntries(map: Record<string, unknown>): string[] {
  return Object.entries(map).flatMap(([field, value]) => {
    const said = (Array.isArray(value) ? value : [value]).map((item) => (typeof item === "string" ? item : entryText(item)));
    const text = said.filter((item): item is string => item !== undefined).join(", ");
    return text === "" ? [] : [`${field}: ${text}`];
  });
}

/**
 * What an upstream's error body lists beside its message, each a line: the entries of its `details`, `errors`,
 * `invalid-params` (RFC 9457) or kin, at the top or inside `error` (Google's, Stripe's `param`), a field map's entries;
 * at most ten, each cut to 240 characters, none repeating the message.
 */
export function errorDetails(body: Record<string, unknown>, message: string): string[] {
  const holders = [body, ...(isRecord(body.error) ? [body.error] : [])];
  const lines: string[] = [];
  for (const holder of holders) {
    for (const key of LISTS) {
      const list = holder[key];
      if (Array.isArray(list)) for (const entry of list) lines.push(entryText(entry) ?? "");
      else if (isRecord(list)) lines.push(...mapEntries(list));
    }
    // Stripe names the parameter an error is about beside its message.
    if (holder !== body && typeof holder.param === "string") lines.push(`param: ${holder.param}`);
  }
  const seen = new Set([message.trim()]);
  const shown: string[] = [];
  for (const line of lines) {
    const text = line.replace(/\s+/g, " ").trim();
    if (text === "" || seen.has(text)) continue;
    seen.add(text);
    shown.push(text.length > MAX_DETAIL_LENGTH ? `${text.slice(0, MAX_DETAIL_LENGTH)}…` : text);
    if (shown.length === MAX_DETAILS) break;
  }
  return shown;
}
