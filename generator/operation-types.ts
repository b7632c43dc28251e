import type { OpenApiDocument } from "../openapi/types.js";
import { typingInput } from "../openapi/typing-input.js";
import { UserError } from "./errors.js";

/** TypeScript declarations (`paths`, `components`, `operations`) for a document, from openapi-typescript. */
export async function operationTypes(document: OpenApiDocument): Promise<string> {
  const input = typingInput(document);
  if (input.externalRefs.length > 0) {
    const first = input.externalRefs.slice(0, 3).join(", ");
    throw new UserError(
      `external $ref ${first} cannot be followed; bundle the document into one file first (for example with \`redocly bundle\`)`,
    );
  }
  // Loaded on demand: it takes half a second, and a run whose types come from the render cache never needs it.
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  try {
    const ast = await openapiTS(input.document as unknown as Parameters<typeof openapiTS>[0], {
      silent: true,
      alphabetize: false,
      exportType: true,
    });
    return input.restore(astToString(ast));
  } catch (error) {
    // openapi-typescript rejects some documents (references it cannot resolve); that is the document's problem.
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
    throw new UserError(`openapi-typescript cannot type the selected operations: ${message.slice(0, 300)}`);
  }
}
