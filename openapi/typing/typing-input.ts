import { eachObject, isJsonObject, type JsonObject, type OpenApiDocument } from "../document/index.js";
import { isNullBesideAlternatives } from "../model/index.js";
import { collectRefs, mappingRef, resolvePointer } from "../references/index.js";
import { fitEnumsToTypes } from "./enum-types.js";
import { maskPrototypeKeys } from "./prototype-keys.js";
import { cutEagerCycles } from "./typing-cycles.js";

/** A copy of a document as openapi-typescript can type it, the references it cannot follow, and how to undo the masking. */
export interface TypingInput {
  document: OpenApiDocument;
  /** External `$ref`s: openapi-typescript cannot follow them. */
  externalRefs: string[];
  /** Turns masked names in the generated text back into the document's. */
  restore(text: string): string;
}

/**
 * Prepares a (pruned) document for openapi-typescript: examples dropped, enums fitted to their types, discriminator
 * mappings that name nothing removed and prototype-member names masked. The original is not changed, unless it was
 * parsed for this call alone from the JSON text `parsedFrom`: then it is prepared in place.
 */
export function typingInput(document: OpenApiDocument, parsedFrom?: string): TypingInput {
  const copy = withoutExamples(parsedFrom !== undefined ? document : structuredClone(document));
  fitEnumsToTypes(copy);
  nullAsAlternative(copy);
  dropOutsideMappings(copy);
  inlinePathReferences(copy);
  cutEagerCycles(copy);
  const { restore } = maskPrototypeKeys(copy, parsedFrom);
  const external = new Set<string>();
  collectRefs(copy, (ref) => {
    if (!ref.startsWith("#")) external.add(ref);
  });
  return { document: copy, externalRefs: [...external], restore };
}

/**
 * Writes `type: "null"` beside `oneOf`/`anyOf` as one more alternative, as the tools' schemas read it: openapi-typescript
 * types it `null & (…)`, which does not compile where an alternative refers back to the schema (TS2502).
 */
function nullAsAlternative(document: JsonObject): void {
  eachObject(document, (value) => {
    if (!isNullBesideAlternatives(value)) return;
    delete value.type;
    const list = Array.isArray(value.oneOf) && value.oneOf.length > 0 ? value.oneOf : value.anyOf;
    if (Array.isArray(list)) list.push({ type: "null" });
  });
}

/**
 * Removes discriminator mapping entries that name nothing in the document: another file (DigitalOcean's `models/*.yml`,
 * which its published document does not carry) or a pointer to nowhere. They only name a schema the `oneOf` already
 * lists, and openapi-typescript would try to follow them.
 */
function dropOutsideMappings(document: JsonObject): void {
  eachObject(document, (value) => {
    const discriminator = value.discriminator;
    if (!isJsonObject(discriminator) || !isJsonObject(discriminator.mapping)) return;
    const mapping = discriminator.mapping;
    for (const [key, target] of Object.entries(mapping)) {
      if (typeof target === "string" && resolvePointer(document, mappingRef(target)) === undefined) delete mapping[key];
    }
  });
}

/** Copies of one inner target a document may inline (a target that refers to itself ends as `{}`). */
const MAX_PATH_INLINES = 64;

/**
 * Whether a reference points inside something rather than at a component: into `paths` (a response schema's item,
 * Brex's `…/content/application~1json/schema/items/…`) or below a component (Twine's
 * `#/components/schemas/Event/properties/relationships/properties/owner`).
 */
function pointsInside(ref: string): boolean {
  return ref.startsWith("#/paths/") || (ref.startsWith("#/components/") && ref.split("/").length > 4);
}

/**
 * Replaces references that point inside something by a copy of their target: openapi-typescript writes them as type
 * paths that step through a `["schema"]` the types lack or an optional property's `undefined` (TS2339). Only the typing
 * input changes; the tools' JSON Schemas resolve them as before.
 */
function inlinePathReferences(document: JsonObject): void {
  const copies = new Map<string, number>();
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    // A reference may sit in an object's field or in a list (`allOf: [{ $ref }]`, Codat's `…/definitions/…`).
    const holder = Array.isArray(value) ? value : isJsonObject(value) ? value : undefined;
    if (holder === undefined) continue;
    for (const [key, child] of Object.entries(holder)) {
      if (isJsonObject(child) && typeof child.$ref === "string" && pointsInside(child.$ref)) {
        const count = (copies.get(child.$ref) ?? 0) + 1;
        copies.set(child.$ref, count);
        const target = resolvePointer(document, child.$ref);
        const copy = count <= MAX_PATH_INLINES && isJsonObject(target) ? structuredClone(target) : {};
        if (Array.isArray(holder)) holder[Number(key)] = copy;
        else holder[key] = copy;
        stack.push(copy);
      } else if (typeof child === "object" && child !== null) stack.push(child);
    }
  }
}

/** Maps whose keys are names, not keywords: a key `example` inside them is a property, not an example. */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "schemas",
  "responses",
  "parameters",
  "headers",
  "content",
  "paths",
  "mapping",
]);

/** Removes schema `example` values that are reference objects (data pretending to be a `$ref`). */
function dropReferencedExamples(node: unknown, namesHere: boolean): void {
  if (Array.isArray(node)) {
    for (const item of node) dropReferencedExamples(item, false);
    return;
  }
  if (!isJsonObject(node)) return;
  if (!namesHere && isJsonObject(node.example) && typeof node.example.$ref === "string") delete node.example;
  for (const [key, value] of Object.entries(node)) dropReferencedExamples(value, !namesHere && NAME_MAPS.has(key));
}

/** Drops the examples of media types, parameters and headers (types never use them, and they may point elsewhere). */
function withoutExamples(document: OpenApiDocument): OpenApiDocument {
  const strip = (holder: unknown) => {
    if (!isJsonObject(holder)) return;
    delete holder.example;
    delete holder.examples;
  };
  const media = (content: unknown) => {
    if (isJsonObject(content)) for (const value of Object.values(content)) strip(value);
  };
  const response = (value: unknown) => {
    if (!isJsonObject(value)) return;
    media(value.content);
    if (isJsonObject(value.headers)) for (const header of Object.values(value.headers)) strip(header);
  };
  for (const item of Object.values(isJsonObject(document.paths) ? document.paths : {})) {
    if (!isJsonObject(item)) continue;
    for (const [key, operation] of Object.entries(item)) {
      if (key === "parameters" && Array.isArray(operation)) operation.forEach(strip);
      if (!isJsonObject(operation)) continue;
      if (Array.isArray(operation.parameters)) operation.parameters.forEach(strip);
      if (isJsonObject(operation.requestBody)) media(operation.requestBody.content);
      if (isJsonObject(operation.responses)) for (const value of Object.values(operation.responses)) response(value);
    }
  }
  const components: JsonObject = isJsonObject(document.components) ? document.components : {};
  dropReferencedExamples(document, false);
  for (const value of Object.values(isJsonObject(components.parameters) ? components.parameters : {})) strip(value);
  for (const value of Object.values(isJsonObject(components.headers) ? components.headers : {})) strip(value);
  for (const value of Object.values(isJsonObject(components.requestBodies) ? components.requestBodies : {}))
    if (isJsonObject(value)) media(value.content);
  for (const value of Object.values(isJsonObject(components.responses) ? components.responses : {})) response(value);
  return document;
}
