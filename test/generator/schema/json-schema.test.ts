import { describe, expect, it } from "vitest";
import { generateFromDocument } from "../../../generator/generate.js";
import { SchemaConverter, type SchemaDirection } from "../../../generator/schema/index.js";
import type { JsonObject, OpenApiDocument } from "../../../openapi/document/index.js";
import { readSchema, SchemaCatalog } from "../../../openapi/model/index.js";

/** A converter over a document's schemas that reads each root as written. */
function converterFor(document: OpenApiDocument, direction: SchemaDirection, where: string) {
  const converter = new SchemaConverter(new SchemaCatalog(document), direction, where);
  return {
    convertRoot: (raw: JsonObject) => converter.convertRoot(readSchema(raw)),
    defsObject: () => converter.defsObject(),
    warnings: converter.warnings,
  };
}

function documentWith(schemas: JsonObject): OpenApiDocument {
  return { openapi: "3.0.3", info: { title: "t", version: "1" }, paths: {}, components: { schemas } };
}

describe("OpenAPI schema → JSON Schema", () => {
  it.each<[string, JsonObject, JsonObject]>([
    ["nullable string", { type: "string", nullable: true }, { type: ["string", "null"] }],
    ["nullable enum", { type: "string", enum: ["a"], nullable: true }, { type: ["string", "null"], enum: ["a", null] }],
    ["nullable without type", { nullable: true, description: "x" }, { anyOf: [{ description: "x" }, { type: "null" }] }],
    ["3.0 exclusive bounds", { type: "integer", minimum: 1, exclusiveMinimum: true }, { type: "integer", exclusiveMinimum: 1 }],
    ["example → examples", { type: "string", example: "x" }, { type: "string", examples: ["x"] }],
    ["OpenAPI-only keywords dropped", { type: "object", "x-go": 1, xml: {}, externalDocs: {} }, { type: "object" }],
    [
      "discriminator described",
      { oneOf: [], discriminator: { propertyName: "k" } },
      { description: 'The property "k" says which variant this is.' },
    ],
    [
      "integer stays integer; a format JSON Schema lacks becomes a hint",
      { type: "integer", format: "int64" },
      { type: "integer", description: "(format: int64)" },
    ],
    [
      "object keywords get their type",
      { properties: { a: { type: "string" } } },
      { type: "object", properties: { a: { type: "string" } } },
    ],
    [
      "object keywords under a type that is never an object go",
      { type: ["string", "null"], additionalProperties: true },
      { type: ["string", "null"] },
    ],
    [
      "a required name the schema does not define gets an empty property",
      { type: "object", required: ["a"] },
      { type: "object", required: ["a"], properties: { a: {} } },
    ],
    ["a JSON Schema format stays", { type: "string", format: "date-time" }, { type: "string", format: "date-time" }],
    ["3.1 type arrays and const", { type: ["string", "null"], const: "a" }, { type: ["string", "null"], const: "a" }],
    ["enum of the wrong type dropped", { type: "object", enum: ["PKW", "VAN"] }, { type: "object" }],
    ["enum values of the wrong type dropped", { type: "integer", enum: [1, "2", 3.5] }, { type: "integer", enum: [1] }],
    [
      "null kept in a nullable enum",
      { type: "string", enum: ["a", null], nullable: true },
      { type: ["string", "null"], enum: ["a", null] },
    ],
  ])("%s", (_, input, expected) => {
    expect(converterFor(documentWith({}), "request", "t").convertRoot(input)).toEqual(expected);
  });

  it("turns nested refs into $defs and ends cycles at a $ref", () => {
    const document = documentWith({
      Node: {
        type: "object",
        properties: { value: { type: "string" }, children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
      },
    });
    const converter = converterFor(document, "response", "t");
    const root = converter.convertRoot({ $ref: "#/components/schemas/Node" });
    expect(root.properties).toEqual({ value: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } });
    expect(converter.defsObject()).toEqual({ Node: root });
  });

  it("keeps $ref siblings through allOf, which draft-07 and 2020-12 read alike", () => {
    const document = documentWith({ Id: { type: "string" } });
    const converted = converterFor(document, "request", "t").convertRoot({
      type: "object",
      properties: { id: { $ref: "#/components/schemas/Id", description: "the id" } },
    });
    expect(converted.properties).toEqual({ id: { description: "the id", allOf: [{ $ref: "#/$defs/Id" }] } });
  });

  it("makes readOnly properties of requests accepted-and-dropped placeholders (never required), and drops writeOnly ones from responses", () => {
    const schema = {
      type: "object",
      required: ["id", "secret", "name"],
      properties: { id: { type: "string", readOnly: true }, secret: { type: "string", writeOnly: true }, name: { type: "string" } },
    };
    const request = converterFor(documentWith({}), "request", "t").convertRoot(schema);
    const response = converterFor(documentWith({}), "response", "t").convertRoot(schema);
    expect(Object.keys(request.properties as JsonObject)).toEqual(["id", "secret", "name"]);
    expect((request.properties as JsonObject).id).toEqual({ readOnly: true, description: "Read-only: accepted and ignored (never sent)." });
    expect(request.required).toEqual(["secret", "name"]);
    expect(Object.keys(response.properties as JsonObject)).toEqual(["id", "name"]);
    expect(response.required).toEqual(["id", "name"]);
  });

  it("drops patterns that are not ECMAScript regular expressions, with a warning", () => {
    const converter = converterFor(documentWith({}), "request", "op");
    expect(converter.convertRoot({ type: "string", pattern: "(?i)abc" })).toEqual({ type: "string" });
    expect(converter.warnings[0]).toMatch(/op: dropped pattern .* \(not a valid regular expression in Unicode mode/);
  });

  it("writes escapes of plain punctuation as the character, which Unicode-mode validators take, with no warning", () => {
    const converter = converterFor(documentWith({}), "request", "op");
    expect(converter.convertRoot({ type: "string", pattern: "^[a-zA-Z0-9\\-\\_]+$" })).toEqual({
      type: "string",
      pattern: "^[a-zA-Z0-9\\-_]+$",
    });
    expect(converter.convertRoot({ type: "string", pattern: "^a\\-b\\@c\\.d\\\\_$" })).toEqual({
      type: "string",
      pattern: "^a-b@c\\.d\\\\_$",
    });
    expect(converter.warnings).toEqual([]);
    for (const pattern of ["^[a-zA-Z0-9\\-_]+$", "^a-b@c\\.d\\\\_$"]) expect(() => new RegExp(pattern, "u")).not.toThrow();
  });

  it("names a dangling $ref", () => {
    expect(() => converterFor(documentWith({}), "request", "op").convertRoot({ $ref: "#/components/schemas/Nope" })).toThrow(
      'op: unresolvable $ref "#/components/schemas/Nope"',
    );
  });
});

describe("long chains of references", () => {
  /** Schemas S0 → S1 → … → S{length-1}, each nesting `nest` objects before its reference to the next. */
  function chain(length: number, nest: number): OpenApiDocument {
    const schemas: JsonObject = {};
    for (let index = 0; index < length; index++) {
      let inner: JsonObject = index + 1 < length ? { $ref: `#/components/schemas/S${index + 1}` } : { type: "string" };
      for (let level = 0; level < nest; level++) inner = { type: "object", properties: { next: inner } };
      schemas[`S${index}`] = inner;
    }
    return documentWith(schemas);
  }

  it("converts a chain of 250 references, one $defs entry each", () => {
    const converter = converterFor(chain(250, 1), "response", "getA");
    converter.convertRoot({ $ref: "#/components/schemas/S0" });
    expect(Object.keys(converter.defsObject() ?? {})).toHaveLength(249);
  });

  it("refuses a longer chain by name, where 600 overflowed the call stack", () => {
    const converter = converterFor(chain(600, 1), "response", "getA");
    expect(() => converter.convertRoot({ $ref: "#/components/schemas/S0" })).toThrow(
      "getA: more than 256 schemas reference each other in one chain at #/components/schemas/S257",
    );
  });

  it("refuses a chain whose schemas each nest deep, before the call stack runs out, with the operation's name", () => {
    // 200 references nesting 60 deep each, and 250 nesting 10 (where the stack ran out, at times as a TypeError).
    for (const [length, nest] of [
      [200, 60],
      [250, 10],
    ] as const) {
      const converter = converterFor(chain(length, nest), "response", "getA");
      expect(() => converter.convertRoot({ $ref: "#/components/schemas/S0" })).toThrow(
        "getA: schemas nest too deeply, through references, to convert (over 700 levels at once)",
      );
    }
  });
});

describe("JSON Schema 2020-12 dynamic references", () => {
  it("binds $dynamicRef to the outermost $dynamicAnchor and inlines the generic schema under it", () => {
    const document: OpenApiDocument = {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: {},
      components: {
        schemas: {
          Page: {
            $id: "https://example.com/Page",
            $defs: { item: { $dynamicAnchor: "item", not: {} } },
            type: "object",
            properties: { data: { type: "array", items: { $dynamicRef: "#item" } } },
          },
          Pet: { type: "object", properties: { name: { type: "string" } } },
        },
      },
    };
    const converter = converterFor(document, "response", "t");
    const page = converter.convertRoot({
      $defs: { item: { $dynamicAnchor: "item", $ref: "#/components/schemas/Pet" } },
      $ref: "#/components/schemas/Page",
    });
    expect(page).toEqual({ type: "object", properties: { data: { type: "array", items: { $ref: "#/$defs/Pet" } } } });
    expect(converter.defsObject()).toEqual({ Pet: { type: "object", properties: { name: { type: "string" } } } });
    const unbound = converterFor(document, "response", "t").convertRoot({ $ref: "#/components/schemas/Page" });
    expect(unbound.properties).toEqual({ data: { type: "array", items: { not: {} } } });
  });
});

describe("contradictory enums", () => {
  it("warns about enum values no instance of the type can be, and types the operation without them", async () => {
    const document: OpenApiDocument = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/groups": {
          get: {
            operationId: "getGroup",
            responses: {
              200: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/ProductGroup" } } } },
            },
          },
        },
      },
      // Mercedes-Benz's configurator document: an object "enum" of strings, which no value satisfies.
      components: {
        schemas: { ProductGroup: { type: "object", enum: ["PKW", "VAN"], properties: { name: { type: "string" } }, required: ["name"] } },
      },
    };
    const result = await generateFromDocument(document, { server: { name: "t" }, select: { all: true } });
    expect(result.warnings).toEqual([
      'getGroup: dropped enum value(s) ["PKW","VAN"] at (#/components/schemas/ProductGroup): not of type "object"',
    ]);
    expect(result.tools[0]?.outputSchema).toEqual({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    });
    expect(result.files.get("api-types.ts")).toMatch(/ProductGroup: \{\s*name: string;\s*\}/);
  });
});
