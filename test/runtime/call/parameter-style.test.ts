import { describe, expect, it } from "vitest";
import type { ParameterBinding } from "../../../runtime/base/tool.js";
import { cookiePairs, encodeValue, headerText, pathValue, queryPairs } from "../../../runtime/call/parameter-style.js";
import { buildUpstreamRequest } from "../../../runtime/call/upstream-request.js";

const VALUES = { string: "blue", array: ["blue", "black", "brown"], object: { R: 100, G: 200, B: 150 } } as const;

/**
 * The style examples of the OpenAPI Specification (3.1.1 and 3.2.0, which follow RFC 6570), for a parameter named
 * `color`: [style, explode, string, array, object]; `undefined` where the table says n/a.
 * @see https://spec.openapis.org/oas/v3.1.1#style-examples
 */
const PATH_TABLE: [string, boolean, string, string, string][] = [
  ["matrix", false, ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"],
  ["matrix", true, ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"],
  ["label", false, ".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
  ["label", true, ".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
  ["simple", false, "blue", "blue,black,brown", "R,100,G,200,B,150"],
  ["simple", true, "blue", "blue,black,brown", "R=100,G=200,B=150"],
];
const QUERY_TABLE: [string, boolean, string | undefined, string | undefined, string][] = [
  ["form", false, "color=blue", "color=blue,black,brown", "color=R,100,G,200,B,150"],
  ["form", true, "color=blue", "color=blue&color=black&color=brown", "R=100&G=200&B=150"],
  ["spaceDelimited", false, undefined, "color=blue%20black%20brown", "color=R%20100%20G%20200%20B%20150"],
  ["pipeDelimited", false, undefined, "color=blue%7Cblack%7Cbrown", "color=R%7C100%7CG%7C200%7CB%7C150"],
  ["deepObject", true, undefined, undefined, "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"],
];

function binding(
  location: ParameterBinding["in"],
  style: string,
  explode: boolean,
  extra: Partial<ParameterBinding> = {},
): ParameterBinding {
  return { argument: "color", name: "color", in: location, required: true, style, explode, ...extra };
}

describe("parameter serialisation: the OpenAPI style table", () => {
  it.each(PATH_TABLE)("path %s, explode %s", (style, explode, string, array, object) => {
    const parameter = binding("path", style, explode);
    expect(pathValue(parameter, VALUES.string, encodeValue)).toBe(string);
    expect(pathValue(parameter, VALUES.array, encodeValue)).toBe(array);
    expect(pathValue(parameter, VALUES.object, encodeValue)).toBe(object);
  });

  it.each(QUERY_TABLE)("query %s, explode %s", (style, explode, string, array, object) => {
    const parameter = binding("query", style, explode);
    if (string !== undefined) expect(queryPairs(parameter, VALUES.string).join("&")).toBe(string);
    if (array !== undefined) expect(queryPairs(parameter, VALUES.array).join("&")).toBe(array);
    expect(queryPairs(parameter, VALUES.object).join("&")).toBe(object);
  });

  it("headers use simple, cookies form", () => {
    expect(headerText(binding("header", "simple", false), VALUES.array)).toBe("blue,black,brown");
    expect(headerText(binding("header", "simple", true), VALUES.object)).toBe("R=100,G=200,B=150");
    expect(cookiePairs(binding("cookie", "form", false), VALUES.array)).toEqual(["color=blue,black,brown"]);
    expect(cookiePairs(binding("cookie", "form", true), VALUES.object)).toEqual(["R=100", "G=200", "B=150"]);
  });

  it("percent-encodes values (RFC 3986), keeping reserved characters only with allowReserved", () => {
    expect(queryPairs(binding("query", "form", true), "a/b?c d&e")).toEqual(["color=a%2Fb%3Fc%20d%26e"]);
    expect(queryPairs(binding("query", "form", true, { allowReserved: true }), "a/b?c d&e#f")).toEqual(["color=a/b?c%20d&e%23f"]);
  });

  it("applies the defaults of each location through a whole request, and sends a content-declared parameter as one text", async () => {
    const request = await buildUpstreamRequest(
      {
        method: "GET",
        path: "/paint/{color}",
        parameters: [
          { argument: "color", name: "color", in: "path", required: true, style: "matrix", explode: true },
          { argument: "shade", name: "shade", in: "query", required: false },
          { argument: "filter", name: "filter", in: "query", required: false, content: "application/json" },
          { argument: "trace", name: "X-Trace", in: "header", required: false },
        ],
        response: "json",
      },
      { color: VALUES.object, shade: VALUES.array, filter: { status: { _eq: "published" } }, trace: VALUES.array },
      new URL("https://api.example.com/v1"),
    );
    expect(request.url.href).toBe(
      "https://api.example.com/v1/paint/;R=100;G=200;B=150?shade=blue&shade=black&shade=brown&filter=%7B%22status%22%3A%7B%22_eq%22%3A%22published%22%7D%7D",
    );
    expect(request.headers["x-trace"]).toBe("blue,black,brown");
  });
});
