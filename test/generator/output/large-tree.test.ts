import { rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateFromDocument } from "../../../generator/generate.js";
import { ROOT } from "../../helpers/cli.js";
import { writeAndTypecheck } from "../../helpers/generated-tree.js";

/** How many operations: as many as Mailchimp's 272, whose inferred client and registry types were too long to write. */
const OPERATIONS = 280;

/**
 * An API of many operations, each with path and query parameters, a JSON body and a large JSON result written inline
 * (as Mailchimp writes its results): a result type the compiler must write out in full where it is not named.
 */
function largeDocument(): Record<string, unknown> {
  const fields = Object.fromEntries(["name", "email", "status", "created_at", "note"].map((name) => [name, { type: "string" }]));
  const nested = { type: "object", properties: fields };
  const result = { type: "object", properties: Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`part_${index}`, nested])) };
  const paths: Record<string, unknown> = {};
  for (let index = 0; index < OPERATIONS; index++) {
    paths[`/things${index}/{thing_id}`] = {
      post: {
        operationId: `updateThing${index}`,
        summary: `Update thing ${index}`,
        parameters: [
          { name: "thing_id", in: "path", required: true, schema: { type: "string" } },
          { name: "fields", in: "query", schema: { type: "array", items: { type: "string" } } },
        ],
        requestBody: { content: { "application/json": { schema: { type: "object", properties: fields } } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: result } } } },
      },
    };
  }
  return { openapi: "3.0.3", info: { title: "Large", version: "1" }, servers: [{ url: "https://api.example.com" }], paths };
}

describe("a large API's generated tree", () => {
  it("builds with declarations, as its own `npm run build` does: the client and the registry are typed by name", async () => {
    const result = await generateFromDocument(largeDocument() as never, {
      server: { name: "large" },
      select: { all: true },
      mode: "discovery",
    });
    const folder = join(ROOT, ".tmp", "large-tree");
    await rm(folder, { recursive: true, force: true });
    try {
      expect(await writeAndTypecheck(folder, result.files)).toBe("");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 180_000);
});
