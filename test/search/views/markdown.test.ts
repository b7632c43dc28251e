import { describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../../../openapi/document/index.js";
import { buildApiModel } from "../../../openapi/model/index.js";
import { operationMarkdown } from "../../../search/views/index.js";

describe("an operation as Markdown", () => {
  it("cuts a huge description, with a marker, so its parameters and responses still show", () => {
    const document = {
      openapi: "3.0.3",
      info: { title: "Long", version: "1" },
      paths: {
        "/things": {
          get: {
            operationId: "listThings",
            description: "word ".repeat(72_000),
            parameters: [{ name: "tag", in: "query", description: "t".repeat(5_000), schema: { type: "string" } }],
            responses: { "200": { description: "the things" } },
          },
        },
      },
    } as unknown as OpenApiDocument;
    const [operation] = buildApiModel(document).operations;
    if (!operation) throw new Error("no operation");
    const text = operationMarkdown(operation, { requestBody: null });
    expect(text.length).toBeLessThan(12_000);
    // Markdown escapes the marker's bracket, as it escapes the document's own text.
    expect(text).toContain("… \\[truncated: 352000 more characters]");
    expect(text).toContain("### Parameters");
    expect(text).toContain("\\[truncated: 4000 more characters]");
    expect(text).toContain("### Responses");
    expect(text).toContain("**200** the things");
  });
});
