import { describe, expect, it } from "vitest";
import type { BodyBinding, HttpBinding } from "../../../runtime/base/tool.js";
import { formFields, urlEncodedForm } from "../../../runtime/call/form-body.js";
import { multipartBody } from "../../../runtime/call/multipart.js";
import { buildUpstreamRequest } from "../../../runtime/call/upstream-request.js";

const base = new URL("http://127.0.0.1:9");
const post = (body: BodyBinding): HttpBinding => ({ method: "POST", path: "/p", parameters: [], body, response: "json" });
const ADDRESS = { streetAddress: "123 Example Dr.", city: "Somewhere", state: "CA", zip: "99999+1234" };
const ID = "f81d4fae-7dec-11d0-a765-00a0c91e6bf6";

/** The parts of a multipart body, as a server reads them: name, headers and text of each. */
function parts(bytes: Uint8Array, contentType: string): { headers: string[]; text: string }[] {
  const boundary = contentType.split("boundary=")[1] ?? "";
  return Buffer.from(bytes)
    .toString("utf8")
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head = "", ...rest] = part.slice(2, -2).split("\r\n\r\n");
      return { headers: head.split("\r\n"), text: rest.join("\r\n\r\n") };
    });
}

describe("form bodies by the Encoding Object: the OpenAPI specification's own examples (3.1.1 / 3.0.4)", () => {
  it("URL-encoded form with JSON values: no encoding, an object is JSON and a string is itself", () => {
    const body = urlEncodedForm({ id: ID, address: ADDRESS }, undefined);
    // The specification writes `+` for spaces and leaves `:` and `,` as they are; both spellings decode the same.
    const specification = `id=${ID}&address=%7B%22streetAddress%22:%22123+Example+Dr.%22,%22city%22:%22Somewhere%22,%22state%22:%22CA%22,%22zip%22:%2299999%2B1234%22%7D`;
    expect([...new URLSearchParams(body)]).toEqual([...new URLSearchParams(specification)]);
    expect(body).toBe(
      `id=${ID}&address=%7B%22streetAddress%22%3A%22123%20Example%20Dr.%22%2C%22city%22%3A%22Somewhere%22%2C%22state%22%3A%22CA%22%2C%22zip%22%3A%2299999%2B1234%22%7D`,
    );
  });

  it("a string declared application/json is a JSON string", () => {
    expect(urlEncodedForm({ id: ID }, { id: { contentType: "application/json" } })).toBe(`id=%22${ID}%22`);
  });

  it("URL-encoded form with binary values: base64 text as given, its padding percent-encoded", () => {
    const icon = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAABGdBTUEAALGPC_xhBQ==";
    expect(urlEncodedForm({ name: "example", icon }, { icon: { contentType: "image/png, image/jpeg" } })).toBe(
      `name=example&icon=${icon.replace(/=/g, "%3D")}`,
    );
  });

  it("style, explode and allowReserved make a field a query parameter of that style (contentType then ignored)", () => {
    const encoding = {
      color: { style: "form", explode: false, contentType: "application/json" },
      tags: { style: "pipeDelimited" },
      filter: { style: "deepObject", explode: true },
      url: { allowReserved: true },
      spread: { explode: true },
    };
    expect(
      urlEncodedForm(
        { color: ["blue", "black"], tags: ["a", "b"], filter: { price: { gte: 5 } }, url: "https://x.example/a?b", spread: { R: 1, G: 2 } },
        encoding,
      ),
    ).toBe("color=blue,black&tags=a%7Cb&filter%5Bprice%5D%5Bgte%5D=5&url=https://x.example/a?b&R=1&G=2");
  });

  it("arrays without encoding repeat the field, one value an item (objects as JSON)", () => {
    expect(urlEncodedForm({ ids: [1, 2], rows: [{ a: 1 }] }, undefined)).toBe("ids=1&ids=2&rows=%7B%22a%22%3A1%7D");
  });

  it("leaves out nulls, and names no field twice for deepObject leaves that are null", () => {
    expect(urlEncodedForm({ a: null, b: { c: null, d: 1 } }, { b: { style: "deepObject", explode: true } })).toBe("b%5Bd%5D=1");
  });

  it("raw fields for multipart: names and values unencoded", () => {
    expect(formFields("meta", { a: "x y" }, { style: "deepObject", explode: true }, true)).toEqual([{ name: "meta[a]", text: "x y" }]);
  });
});

describe("multipart bodies by the Encoding Object", () => {
  it("the specification's multipart example: text id, one XML-typed part per address, the image with its type", async () => {
    const request = await buildUpstreamRequest(
      post({
        mediaType: "multipart/form-data",
        kind: "multipart",
        files: ["profileImage"],
        encoding: {
          addresses: { contentType: "application/xml; charset=utf-8" },
          profileImage: { contentType: "image/png, image/jpeg", headers: { "X-Rate-Limit-Limit": "10" } },
        },
      }),
      { body: { id: ID, addresses: ["<a>1</a>", "<a>2</a>"], profileImage: { base64: Buffer.from("PNG").toString("base64") } } },
      base,
    );
    const contentType = request.headers["content-type"] ?? "";
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(parts(request.body as Uint8Array, contentType)).toEqual([
      { headers: ['Content-Disposition: form-data; name="id"'], text: ID },
      { headers: ['Content-Disposition: form-data; name="addresses"', "Content-Type: application/xml; charset=utf-8"], text: "<a>1</a>" },
      { headers: ['Content-Disposition: form-data; name="addresses"', "Content-Type: application/xml; charset=utf-8"], text: "<a>2</a>" },
      {
        headers: [
          'Content-Disposition: form-data; name="profileImage"; filename="profileImage"',
          "Content-Type: image/png",
          "X-Rate-Limit-Limit: 10",
        ],
        text: "PNG",
      },
    ]);
    // A standard parser reads it back.
    const form = await new Response(request.body as Uint8Array, { headers: { "content-type": contentType } }).formData();
    expect(form.getAll("addresses")).toEqual(["<a>1</a>", "<a>2</a>"]);
  });

  it("objects travel as JSON parts, and a caller's filename or type cannot add a header line", async () => {
    const multipart = post({ mediaType: "multipart/form-data", kind: "multipart", files: ["file"] });
    const request = await buildUpstreamRequest(
      multipart,
      { body: { meta: { a: 1 }, file: { base64: "AA==", filename: 'a"\r\nX: y.txt' } } },
      base,
    );
    const [meta, file] = parts(request.body as Uint8Array, request.headers["content-type"] ?? "");
    expect(meta).toEqual({ headers: ['Content-Disposition: form-data; name="meta"', "Content-Type: application/json"], text: '{"a":1}' });
    expect(file?.headers[0]).toBe('Content-Disposition: form-data; name="file"; filename="a%22%0D%0AX: y.txt"');
    const typed = await buildUpstreamRequest(
      multipart,
      { body: { file: { base64: "AA==", contentType: "text/plain\r\nX-Injected: 1" } } },
      base,
    );
    const [sent] = parts(typed.body as Uint8Array, typed.headers["content-type"] ?? "");
    expect(sent?.headers).toEqual([
      'Content-Disposition: form-data; name="file"; filename="file"',
      "Content-Type: application/octet-stream",
    ]);
  });

  it("refuses a part header value with a line break", () => {
    expect(() => multipartBody([{ name: "a", data: "x", headers: { "X-A": "1\r\nX-B: 2" } }])).toThrow(/line breaks/);
  });
});
