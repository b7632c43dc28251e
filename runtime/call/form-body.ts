import type { FieldEncoding } from "../base/tool.js";
import { isJsonMediaType } from "../result/response-content.js";
import { encodeValue, percentEncoded, RAW_PAIRS, type StyleSpec, scalarText, styledPairs } from "./parameter-style.js";

/**
 * Form bodies by the OpenAPI Encoding Object: one serialiser with query strings for `application/x-www-form-urlencoded`
 * and `multipart/form-data` fields.
 * @see https://spec.openapis.org/oas/v3.1.1#encoding-object
 */

/** One name/value pair of a form body; `contentType` is the media type a multipart part declares (none: text/plain). */
export interface FormField {
  readonly name: string;
  readonly text: string;
  readonly contentType?: string;
}

/**
 * The fields of one body property. With `style`, `explode` or `allowReserved` set, the property is serialised as a
 * query parameter of that style (the Encoding Object's `contentType` is then ignored); otherwise by its content type,
 * explicit or by default: JSON for objects, the text itself for primitives, and one field per item for arrays (each item
 * by the same rule). `raw` leaves names and values unencoded (multipart); otherwise they are percent-encoded.
 */
export function formFields(name: string, value: unknown, encoding: FieldEncoding | undefined, raw: boolean): FormField[] {
  if (encoding !== undefined && isStyled(encoding)) {
    const style = encoding.style ?? "form";
    const spec: StyleSpec = { style, explode: encoding.explode ?? style === "form", allowReserved: encoding.allowReserved === true };
    return styledPairs(name, value, spec, raw ? RAW_PAIRS : percentEncoded(spec)).map(([field, text]) => ({ name: field, text }));
  }
  const items = Array.isArray(value) ? value : [value];
  const fields: FormField[] = [];
  for (const item of items) {
    if (item === undefined || item === null) continue;
    const contentType = firstMediaType(encoding?.contentType) ?? (typeof item === "object" ? "application/json" : undefined);
    const text = contentType !== undefined && isJsonMediaType(contentType) ? JSON.stringify(item) : scalarText(item);
    fields.push({
      name: raw ? name : encodeValue(name),
      text: raw ? text : encodeValue(text),
      ...(contentType !== undefined ? { contentType } : {}),
    });
  }
  return fields;
}

/** The Encoding Object of one body property (own entries only: a property named `constructor` is just a name). */
export function fieldEncoding(encoding: Readonly<Record<string, FieldEncoding>> | undefined, name: string): FieldEncoding | undefined {
  return encoding !== undefined && Object.hasOwn(encoding, name) ? encoding[name] : undefined;
}

/** An `application/x-www-form-urlencoded` body: every property's fields joined with `&`. */
export function urlEncodedForm(value: Record<string, unknown>, encoding: Readonly<Record<string, FieldEncoding>> | undefined): string {
  const pairs: string[] = [];
  for (const [name, item] of Object.entries(value)) {
    if (item === undefined || item === null) continue;
    for (const field of formFields(name, item, fieldEncoding(encoding, name), false)) pairs.push(`${field.name}=${field.text}`);
  }
  return pairs.join("&");
}

/** True when the Encoding Object asks for RFC 6570-style serialisation. */
function isStyled(encoding: FieldEncoding): boolean {
  return encoding.style !== undefined || encoding.explode !== undefined || encoding.allowReserved !== undefined;
}

/** The first concrete media type of an Encoding Object's comma-separated `contentType` (a wildcard names none). */
export function firstMediaType(contentType: string | undefined): string | undefined {
  const first = contentType
    ?.split(",")
    .map((type) => type.trim())
    .find((type) => type !== "" && !type.includes("*"));
  return first === undefined || /[\r\n\0]/.test(first) ? undefined : first;
}
