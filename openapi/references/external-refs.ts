import { isJsonObject, type JsonValue } from "../document/index.js";
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
  const stack: JsonValue[] = [document];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) stack.push(...node);
    else if (isJsonObject(node)) {
      if (typeof node.$ref === "string" && !node.$ref.startsWith("#")) return true;
      for (const value of Object.values(node)) if (typeof value === "object" && value !== null) stack.push(value);
    }
  }
  return false;
}

/**
 * A cheap look at a document's bytes: false only when no `$ref` in them can point outside the document, so a caller
 * may skip parsing (the run manifest, which hashes only the document's own bytes, relies on it). Only the text after
 * each `$ref` is read, as latin1: the pattern is ASCII, and no byte of a multi-byte UTF-8 character is.
 */
export function mayHaveExternalRefs(bytes: Buffer): boolean {
  for (let at = bytes.indexOf("$ref"); at >= 0; at = bytes.indexOf("$ref", at + 4)) {
    if (/^\$ref["']?\s*:\s*["']?(?!#)[^\s"'#]/.test(bytes.subarray(at, at + 4096).toString("latin1"))) return true;
  }
  return false;
}
