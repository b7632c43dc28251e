import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DiscoveryService, searchableOperation } from "oapi-mcp-gen-runtime/discovery";
import { OperationSearchIndex } from "oapi-mcp-gen-runtime/operation-index";
import { describe, expect, it } from "vitest";
import { generateFromFile } from "../../../generator/generate.js";
import { linkedSuppliers } from "../../../generator/model/index.js";
import type { JsonObject } from "../../../openapi/document/index.js";
import { buildApiModel } from "../../../openapi/model/index.js";
import { registryTool } from "../../helpers/registry-tool.js";

/** A successful response with a JSON body, and the links given. */
function ok(links?: JsonObject): JsonObject {
  return { description: "ok", content: { "application/json": { schema: { type: "object" } } }, ...(links ? { links } : {}) };
}
const id = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });

/** Users and their orders, whose creates link to their reads (by operationId, by operationRef, and through components). */
const DOCUMENT = {
  openapi: "3.0.3",
  info: { title: "Shop", version: "1" },
  paths: {
    "/users": {
      post: {
        operationId: "createUser",
        responses: {
          201: ok({
            GetUser: { operationId: "getUser", parameters: { userId: "$response.body#/id" } },
            Orders: { operationRef: "#/paths/~1users~1%7Bowner%7D~1orders/get", parameters: { "path.owner": "$response.body#/id" } },
            Wrong: { operationId: "getUser", parameters: { nosuch: "$response.body#/id", userId: "$request.body#/id" } },
            Nowhere: { operationId: "deleted" },
          }),
        },
      },
    },
    "/users/{userId}": { get: { operationId: "getUser", parameters: [id("userId")], responses: { 200: ok() } } },
    "/users/{owner}/orders": {
      get: { operationId: "listOrders", parameters: [id("owner")], responses: { 200: ok() } },
      post: {
        operationId: "createOrder",
        parameters: [id("owner")],
        responses: { 201: ok({ Read: { $ref: "#/components/links/ReadOrder" } }) },
      },
    },
    "/orders/{orderId}": { get: { operationId: "getOrder", parameters: [id("orderId")], responses: { 200: ok() } } },
  },
  components: { links: { ReadOrder: { operationId: "getOrder", parameters: { orderId: "$response.body#/id" } } } },
};

describe("the ids a document's OpenAPI links say another operation supplies", () => {
  const model = buildApiModel(DOCUMENT);
  const names = model.operations.map((operation) => operation.operationId ?? "");

  it("reads links by operationId, by operationRef and through components, and keeps only the target's own parameters from a response", () => {
    expect(linkedSuppliers(model.document, model.operations, names)).toEqual({
      getUser: [{ parameter: "userId", supplier: "createUser" }],
      listOrders: [{ parameter: "owner", supplier: "createUser" }],
      getOrder: [{ parameter: "orderId", supplier: "createOrder" }],
    });
    // A link to an operation that is not served supplies nothing.
    expect(linkedSuppliers(model.document, model.operations.slice(0, 1), names.slice(0, 1))).toEqual({});
  });

  it("are written into a discovery server's data, and its search results name the linked operation", async () => {
    const folder = await mkdtemp(join(tmpdir(), "oapi-links-"));
    try {
      const spec = join(folder, "openapi.json");
      await writeFile(spec, JSON.stringify(DOCUMENT));
      const result = await generateFromFile(spec, { server: { name: "shop" }, select: { all: true }, mode: "discovery" });
      const data = result.files.get("discovery.ts") ?? "";
      expect(data).toMatch(/links:\s*\{/);
      const tools = [
        registryTool("create_order", "POST", "/users/{owner}/orders", "Create an order"),
        registryTool("get_order", "GET", "/orders/{orderId}", "Get an order", {
          inputSchema: { type: "object", properties: { orderId: { type: "string" } }, required: ["orderId"] },
        }),
      ];
      const index = new OperationSearchIndex(tools.map((each, id) => searchableOperation(each, id, [])));
      const links = { get_order: [{ parameter: "orderId", supplier: "create_order" }] };
      const service = new DiscoveryService(tools, { alwaysList: [], tags: [[], []], index: index.serialize(), links }, "Shop");
      const found = await service.call(undefined as never, "search_operations", { query: "get an order" }, {} as never);
      expect(((found?.content ?? []) as { text: string }[])[0]?.text).toContain("orderId from create_order");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
