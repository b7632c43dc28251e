import type { OpenApiDocument } from "../openapi/types.js";

/** TypeScript declarations (`paths`, `components`, `operations`) for a document, from openapi-typescript. */
export async function operationTypes(document: OpenApiDocument): Promise<string> {
  // Loaded on demand: it takes half a second, and a run whose types come from the render cache never needs it.
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  const ast = await openapiTS(structuredClone(document) as unknown as Parameters<typeof openapiTS>[0], {
    silent: true,
    alphabetize: false,
    exportType: true,
  });
  return astToString(ast);
}
