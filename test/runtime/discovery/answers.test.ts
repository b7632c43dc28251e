import type { DiscoveryData, ToolDefinition } from "oapi-mcp-gen-runtime";
import { DiscoveryService, searchableOperation } from "oapi-mcp-gen-runtime/discovery";
import { OperationSearchIndex } from "oapi-mcp-gen-runtime/operation-index";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../generator/config/index.js";
import { buildTools } from "../../../generator/model/index.js";
import { buildApiModel } from "../../../openapi/model/index.js";
import { toolDefinition } from "../../../templates/tool-module.js";

const ok = {
  "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { id: { type: "string" } } } } } },
};
const account = { name: "location_id", in: "path", required: true, schema: { type: "string" } };

/** Square's quirk: the old payments list keeps the operationId, the current one has only a summary that spells it. */
const PAYMENTS = {
  openapi: "3.0.3",
  info: { title: "Payments", version: "1" },
  servers: [{ url: "https://api.example.com" }],
  paths: {
    "/v1/{location_id}/payments": {
      get: { operationId: "ListPayments", summary: "ListPayments", "x-release-status": "DEPRECATED", parameters: [account], responses: ok },
    },
    "/v2/payments": {
      get: {
        summary: "ListPayments",
        description: "Lists the payments taken by the account.",
        parameters: [{ name: "begin_time", in: "query", schema: { type: "string" } }],
        responses: ok,
      },
      post: {
        operationId: "CreatePayment",
        summary: "CreatePayment",
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["amount", "source_id"],
                properties: { amount: { type: "integer" }, source_id: { type: "string" }, note: { type: "string" } },
              },
            },
          },
        },
        responses: ok,
      },
    },
    "/v2/refunds/{refund_id}": {
      delete: {
        operationId: "DeleteRefund",
        summary: "Deprecated: removes a refund",
        parameters: [{ name: "refund_id", in: "path", required: true, schema: { type: "string" } }],
        responses: ok,
      },
    },
  },
};

/** The registry the generator writes for a document, every operation selected, and a discovery service over it. */
function discoveryOf(document: object): { tools: ToolDefinition[]; service: DiscoveryService } {
  const model = buildApiModel(document as never);
  const config = resolveConfig({ server: { name: "payments" }, select: { all: true }, mode: "discovery" });
  const tools = buildTools(model, model.operations, config).map(toolDefinition);
  const tags = tools.map(() => []);
  const index = new OperationSearchIndex(tools.map((tool, id) => searchableOperation(tool, id, [])));
  const data: DiscoveryData = { alwaysList: [], tags, index: index.serialize() };
  return { tools, service: new DiscoveryService(tools, data, "Payments") };
}

/** A discovery tool's answer. */
async function call(service: DiscoveryService, name: string, args: Record<string, unknown>) {
  const result = await service.call(undefined as never, name, args, {} as never);
  if (result === undefined) throw new Error(`${name} answered nothing`);
  return result;
}

/** The text of an answer's first block. */
const textOf = (result: Awaited<ReturnType<typeof call>>) => (result.content[0] as { text: string }).text;

describe("deprecated operations", () => {
  it("are read from `deprecated`, a vendor's mark or a summary that says so, and the current one takes the name they share", () => {
    const { tools } = discoveryOf(PAYMENTS);
    const byRoute = new Map(tools.map((tool) => [`${tool._meta.method} ${tool._meta.path}`, tool]));
    expect(byRoute.get("GET /v2/payments")?.name).toBe("list_payments");
    expect(byRoute.get("GET /v1/{location_id}/payments")).toMatchObject({ name: "list_payments_deprecated", _meta: { deprecated: true } });
    expect(byRoute.get("DELETE /v2/refunds/{refund_id}")?._meta.deprecated).toBe(true);
    expect(byRoute.get("POST /v2/payments")?._meta.deprecated).toBeUndefined();
  });

  it("are flagged in search results and ranked after the current operation", async () => {
    const { service } = discoveryOf(PAYMENTS);
    const found = await call(service, "search_operations", { query: "list payments" });
    const results = (found.structuredContent as { results: { name: string; deprecated?: boolean }[] }).results;
    expect(results.slice(0, 2).map((hit) => [hit.name, hit.deprecated ?? false])).toEqual([
      ["list_payments", false],
      ["list_payments_deprecated", true],
    ]);
    expect(textOf(found)).toMatch(
      /2\. list_payments_deprecated \(operationId ListPayments\) — List payments \(GET; deprecated\)\n {3}needs location_id/,
    );
  });
});

describe("answers a model reads cheaply", () => {
  it("search_operations: a compact text, each operation on a line with its required arguments, and the JSON as structured content", async () => {
    const { service } = discoveryOf(PAYMENTS);
    const found = await call(service, "search_operations", { query: "create a payment", limit: 1 });
    const text = textOf(found);
    expect(text).toBe(
      "Operations 1–1 of 1 matching, best first.\n" +
        "1. create_payment — Create payment (POST; changes data)\n" +
        "   needs amount: integer, source_id; optional note",
    );
    expect(found.structuredContent).toMatchObject({
      results: [{ name: "create_payment", operationId: "CreatePayment", method: "POST", path: "/v2/payments", arguments: "body: object" }],
      total: 1,
    });
    const paged = await call(service, "search_operations", { query: "payments", limit: 1 });
    expect(textOf(paged)).toMatch(/^Operations 1–1 of 3 matching, best first; the next page: cursor "1"\.\n1\. /);
    // Not the JSON again: the text is a rendering for the model.
    expect(() => JSON.parse(text)).toThrow();
  });

  it("describe_operation: the arguments first, the result's schema only with at: result", async () => {
    const { service } = discoveryOf(PAYMENTS);
    const described = JSON.parse(textOf(await call(service, "describe_operation", { name: "create_payment" })));
    expect(Object.keys(described).slice(0, 5)).toEqual(["name", "title", "method", "path", "arguments"]);
    expect(described.result).toBeUndefined();
    expect(described.resultSchema).toMatch(/at "result"/);
    const result = JSON.parse(textOf(await call(service, "describe_operation", { name: "create_payment", at: "result" })));
    expect(result.result).toMatchObject({ type: "object" });
    expect(result.arguments).toBeUndefined();
  });
});
