/** References: resolving `$ref` pointers, bundling external files, and inlining what a view shows. */
export { bundleExternalRefs } from "./bundle.js";
export { type ExternalRefPolicy, mayHaveExternalRefs } from "./external-refs.js";
export { inlineSchemas, MAX_INLINED_NODES, referencedSchemas } from "./inline.js";
export { referenceWarnings } from "./reference-warnings.js";
export { collectRefs, decodeToken, derefObject, encodeToken, mappingRef, refName, resolvePointer } from "./refs.js";
