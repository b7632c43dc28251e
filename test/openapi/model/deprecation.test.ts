import { describe, expect, it } from "vitest";
import { buildApiModel } from "../../../openapi/model/index.js";

/** One GET per given operation object, under its own path. */
function modelOf(operations: Record<string, Record<string, unknown>>) {
  const paths = Object.fromEntries(
    Object.entries(operations).map(([id, operation]) => [
      `/${id}`,
      { get: { operationId: id, responses: { 200: { description: "ok" } }, ...operation } },
    ]),
  );
  return buildApiModel({ openapi: "3.0.3", info: { title: "D", version: "1" }, paths });
}

describe("every mark a document uses for a deprecated operation", () => {
  it("reads the flag, vendors' marks, a text that begins by saying so, and one that says this operation is deprecated", () => {
    const model = modelOf({
      flagged: { deprecated: true },
      square: { "x-release-status": "DEPRECATED" },
      vendor: { "x-deprecated": true },
      asana: { description: "*Deprecated: new integrations should prefer the `/status_updates/{status_gid}` route.*" },
      zoom: { description: "**Note: This API has been deprecated and is no longer supported due to GCM encryption updates.**" },
      // Jira: the operation is current; some keys it reads are deprecated.
      jira: { description: "Returns the value of a preference.\n\nNote that these keys are deprecated:\n\n * jira.user.locale" },
      current: { summary: "List preferences", description: "Use this instead of the deprecated listing." },
    });
    const deprecated = Object.fromEntries(model.operations.map((operation) => [operation.operationId, operation.deprecated]));
    expect(deprecated).toEqual({ flagged: true, square: true, vendor: true, asana: true, zoom: true, jira: false, current: false });
  });
});
