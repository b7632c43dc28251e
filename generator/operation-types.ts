import openapiTS, { astToString } from "openapi-typescript";
import type { OpenApiDocument } from "../openapi/types.js";

/** TypeScript declarations (`paths`, `components`, `operations`) for a document, from openapi-typescript. */
export async function operationTypes(document: OpenApiDocument): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as unknown as Parameters<typeof openapiTS>[0], {
    silent: true,
    alphabetize: false,
    exportType: true,
  });
  return astToString(ast);
}
