import type { AllowedHosts } from "./address-policy.js";
import { hasExternalRefs } from "./external-refs.js";
import type { JsonObject } from "./types.js";

/** Which external `$ref`s a document may follow. */
export interface ExternalRefPolicy {
  /** Files anywhere, not only in the document's folder and below. @default false */
  outsideFolder: boolean;
  /** http(s) references, through the guarded fetch (public addresses, plus these hosts); off when undefined. */
  urls?: { allowedHosts: AllowedHosts };
}

/**
 * A document with its external `$ref`s (other files, and URLs when allowed) bundled in as components, with Redocly's
 * bundler (loaded only then); a document without any is returned as it is. Every reference that cannot be followed is
 * one line.
 */
export async function bundleExternalRefs(document: JsonObject, source: string, policy: ExternalRefPolicy): Promise<JsonObject> {
  if (!hasExternalRefs(document)) return document;
  const { bundleWithRedocly } = await import("./redocly-bundle.js");
  return bundleWithRedocly(document, source, policy);
}
