import { describe, expect, it } from "vitest";
import { buildApiModel } from "../../../openapi/model/index.js";

describe("the security requirements a document states", () => {
  it("keeps a requirement the document repeats once (XTRF lists its one token four times), and every distinct alternative", () => {
    const model = buildApiModel({
      openapi: "3.0.3",
      info: { title: "D", version: "1" },
      security: [{ token: [] }, { token: [] }, { token: [] }, { token: [] }],
      paths: {
        "/a": { get: { operationId: "a", responses: { 200: { description: "ok" } } } },
        "/b": {
          get: {
            operationId: "b",
            security: [{ oauth: ["read", "write"] }, { oauth: ["write", "read"] }, { oauth: ["read"] }, { key: [], oauth: ["read"] }],
            responses: { 200: { description: "ok" } },
          },
        },
      },
    });
    const security = Object.fromEntries(model.operations.map((operation) => [operation.operationId, operation.security.requirements]));
    expect(security.a).toEqual([{ token: [] }]);
    expect(security.b).toEqual([{ oauth: ["read", "write"] }, { oauth: ["read"] }, { key: [], oauth: ["read"] }]);
    expect(model.globalSecurity).toEqual([{ token: [] }]);
  });
});
