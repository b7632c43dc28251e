import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../generator/config/index.js";
import { buildTools } from "../../../generator/model/index.js";
import { detectFormat, type JsonObject, type JsonValue, normalizeDocument, parseDocumentText } from "../../../openapi/document/index.js";
import { buildApiModel } from "../../../openapi/model/index.js";
import { LoadedApi } from "../../../search/documents/index.js";
import { operationView } from "../../../search/views/index.js";

const require = createRequire(import.meta.url);
const DOCUMENTS: [label: string, path: string][] = [
  ["GitHub", require.resolve("@octokit/openapi/generated/api.github.com.json")],
  ["Memos", new URL("../../../examples/memos/openapi.yaml", import.meta.url).pathname],
  ["Docker Engine (Swagger 2.0)", new URL("../../fixtures/docker-engine/swagger.yaml", import.meta.url).pathname],
  ["Redocly Museum (3.1)", new URL("../../fixtures/redocly-museum/openapi.yaml", import.meta.url).pathname],
  ["Scalar Galaxy (3.1)", new URL("../../fixtures/scalar-galaxy/openapi.yaml", import.meta.url).pathname],
];

/** Headers a tool cannot take as arguments (the OpenAPI specification says such parameters are ignored). */
const RESERVED_HEADERS = new Set(["accept", "content-type", "authorization"]);

/** A parameter as a line both systems can be compared on. */
function line(location: JsonValue | undefined, name: JsonValue | undefined, required: boolean): string {
  return `${String(location)} ${String(name)}${required ? " (required)" : ""}`;
}

/** What the search server shows of a parameter object. */
function shown(parameter: JsonValue): { line: string; reserved: boolean } {
  const {
    in: location,
    name,
    required,
  } = typeof parameter === "object" && parameter !== null && !Array.isArray(parameter) ? parameter : {};
  const reserved = location === "header" && RESERVED_HEADERS.has(String(name).toLowerCase());
  return { line: line(location, name, location === "path" || required === true), reserved };
}

describe("the search server and the generator read every document alike", () => {
  it.each(DOCUMENTS)(
    "%s: same parameters and security for every operation",
    async (_, path) => {
      const text = await readFile(path, "utf8");
      const parse = async () =>
        (await normalizeDocument(parseDocumentText(text, detectFormat(text, { fileName: path }), path), path)).document;
      // Each system reads its own copy, as it does in production.
      const api = new LoadedApi("parity", await parse(), "", path, "", []);
      const model = buildApiModel(await parse());
      const tools = buildTools(model, model.operations, resolveConfig({ server: { name: "parity" }, select: { all: true } }));
      expect(tools.length).toBe(api.operations.length);
      const byRoute = new Map(api.operations.map((operation) => [`${operation.method} ${operation.path}`, operation]));
      let compared = 0;
      for (const tool of tools) {
        const operation = byRoute.get(`${tool.method} ${tool.path}`);
        expect(operation, `${tool.method} ${tool.path}`).toBeDefined();
        if (!operation) continue;
        const view = operationView(api, operation, { inlineDepth: 0 });
        const parameters = (Array.isArray(view.parameters) ? view.parameters : []).map(shown);
        const where = `${tool.method.toUpperCase()} ${tool.path}`;
        expect(
          tool.parameters.map((binding) => line(binding.in, binding.name, binding.required)),
          where,
        ).toEqual(sortedByLocation(parameters.filter((parameter) => !parameter.reserved).map((parameter) => parameter.line)));
        const security: JsonObject[] = Array.isArray(view.security) ? view.security.filter(isObject) : [];
        expect(tool.security ?? [], where).toEqual(security);
        expect(tool.security === undefined, where).toBe(view.security_source === "none");
        compared++;
      }
      expect(compared).toBe(tools.length);
    },
    120_000,
  );
});

/** Tools list parameters by location (path, query, header, cookie), keeping document order within each. */
function sortedByLocation(lines: string[]): string[] {
  const order = ["path", "query", "header", "cookie"];
  return order.flatMap((location) => lines.filter((entry) => entry.startsWith(`${location} `)));
}

function isObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
