import { eachObject, type JsonValue } from "../document/index.js";
import type { AllowedHosts } from "../fetch/index.js";

/** Which external `$ref`s a document may follow. */
export interface ExternalRefPolicy {
  /** Files anywhere, not only in the document's folder and below. @default false */
  outsideFolder: boolean;
  /** http(s) references, through the guarded fetch (public addresses, plus these hosts); off when undefined. */
  urls?: { allowedHosts: AllowedHosts };
}

/** True when a `$ref` anywhere in the document points outside it. */
export function hasExternalRefs(document: JsonValue): boolean {
  return eachObject(document, (node) => typeof node.$ref === "string" && !node.$ref.startsWith("#"));
}

/**
 * A cheap look at a document's bytes: false only when no `$ref` in them can point outside the document, so a caller
 * may skip parsing (the run manifest, which hashes only the document's own bytes, relies on it). Only the bytes after
 * each `$ref` are read: the pattern is ASCII, and no byte of a multi-byte UTF-8 character is.
 */
export function mayHaveExternalRefs(bytes: Buffer): boolean {
  for (let at = bytes.indexOf("$ref"); at >= 0; at = bytes.indexOf("$ref", at + 4)) if (refersOutside(bytes, at)) return true;
  return false;
}

/** Bytes that are white space to a regular expression's `\s` in Latin-1 text. */
const SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]);
/** A double or a single quote. */
const QUOTE = new Set([0x22, 0x27]);
/** How far after `$ref` its value is looked for. */
const WINDOW = 4096;

/**
 * Whether the `$ref` at `at` is a key whose value starts with other than `#` (`$ref: x`, `"$ref": "x"`) within WINDOW
 * bytes: what `/^\$ref["']?\s*:\s*["']?[^\s"'#]/` finds there, read byte by byte (GitHub has 30,000 `$ref`s).
 */
function refersOutside(bytes: Buffer, at: number): boolean {
  const end = Math.min(bytes.length, at + WINDOW);
  let next = at + 4;
  const skip = (set: ReadonlySet<number>, once: boolean) => {
    while (next < end && set.has(bytes[next] as number)) {
      next++;
      if (once) return;
    }
  };
  skip(QUOTE, true);
  skip(SPACE, false);
  if (next >= end || bytes[next] !== 0x3a) return false;
  next++;
  skip(SPACE, false);
  skip(QUOTE, true);
  const first = bytes[next];
  return next < end && first !== undefined && first !== 0x23 && !SPACE.has(first) && !QUOTE.has(first);
}
