import type { JsonObject } from "../document/index.js";
import { type ExternalRefPolicy, hasExternalRefs } from "./external-refs.js";

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
