import { describe, expect, it } from "vitest";
import { bodyFields, describeUnknown } from "../../../runtime/call/body-fields.js";
import { patternWords } from "../../../runtime/schema/pattern-words.js";

const READ_ONLY = { readOnly: true, description: "Read-only: accepted and ignored (never sent)." };

describe("a body as it is sent: the contract's tolerance", () => {
  const defs = {
    Attachment: { type: "object", properties: { name: { type: "string" }, size: READ_ONLY, meta: { $ref: "#/$defs/Meta" } } },
    Meta: { type: "object", properties: { label: { type: "string" }, at: READ_ONLY } },
    Base: { type: "object", properties: { id: READ_ONLY, kind: { type: "string" } } },
  };
  const schema = {
    type: "object",
    properties: {
      title: { type: "string" },
      attachments: { type: "array", items: { $ref: "#/$defs/Attachment" } },
      labels: { type: "object", additionalProperties: { $ref: "#/$defs/Meta" } },
      extra: { type: "object", patternProperties: { "^x-": {} } },
      open: { type: "object", additionalProperties: true },
      part: { allOf: [{ $ref: "#/$defs/Base" }, { type: "object", properties: { colour: { type: "string" } } }] },
      either: {
        oneOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "string" } } },
        ],
      },
    },
  };

  it("drops read-only fields at every depth, through arrays, references, maps and compositions", () => {
    const { sent, unknown } = bodyFields(
      {
        title: "t",
        attachments: [{ name: "a", size: 3, meta: { label: "l", at: "now" } }],
        labels: { one: { label: "x", at: "then" } },
        part: { id: 7, kind: "k", colour: "red" },
      },
      schema,
      defs,
    );
    expect(sent).toEqual({
      title: "t",
      attachments: [{ name: "a", meta: { label: "l" } }],
      labels: { one: { label: "x" } },
      part: { kind: "k", colour: "red" },
    });
    expect(unknown).toEqual([]);
  });

  it("leaves out an object that held only read-only fields (sent empty, it could clear what the API holds)", () => {
    const { sent } = bodyFields({ title: "t", attachments: [{ name: "a", meta: { at: "now" } }], part: { id: 3 } }, schema, defs);
    expect(sent).toEqual({ title: "t", attachments: [{ name: "a" }] });
  });

  it("keeps fields the schema names nowhere and lists them, with the name a near miss was meant as; a map's or pattern's entries are its own", () => {
    const { sent, unknown } = bodyFields(
      { titel: "t", bookmark: "b", attachments: [{ nmae: "a" }], extra: { "x-trace": 1 }, open: { anything: 1 }, either: { b: "1" } },
      schema,
      defs,
    );
    expect(sent).toEqual({
      titel: "t",
      bookmark: "b",
      attachments: [{ nmae: "a" }],
      extra: { "x-trace": 1 },
      open: { anything: 1 },
      either: { b: "1" },
    });
    expect(unknown.map((field) => [field.path, field.meant])).toEqual([
      ["body.titel", "title"],
      ["body.bookmark", undefined],
      ["body.attachments[0].nmae", "name"],
    ]);
    expect(
      describeUnknown(
        unknown.filter((field) => field.meant),
        false,
      ),
    ).toBe(
      'note: the document names no fields body.titel (did you mean "title"?); body.attachments[0].nmae (did you mean "name"?); sent as given',
    );
    expect(describeUnknown(unknown.slice(1, 2), true)).toMatch(
      /^unknown property body\.bookmark \(it takes title, attachments, labels, extra, open, part, either\)/,
    );
  });

  it("drops the config's root names, and reports at most 20 unknown fields however many a caller sends", () => {
    const many = Object.fromEntries(Array.from({ length: 100_000 }, (_, n) => [`f${n}`, n]));
    const { sent, unknown } = bodyFields({ ...many, title: "t", name: "ignored" }, schema, defs, ["name"]);
    expect(unknown).toHaveLength(20);
    expect(Object.hasOwn(sent as object, "name")).toBe(false);
    expect(Object.keys(sent as object)).toHaveLength(100_001);
  });
});

describe("a pattern said plainly", () => {
  it.each([
    ["^[a-z0-9-]+$", 'may hold lower-case letters, digits and "-" only (pattern ^[a-z0-9-]+$)'],
    ["^[A-Za-z_]{3,20}$", 'may hold upper-case letters, lower-case letters and "_" only, 3 to 20 of them (pattern ^[A-Za-z_]{3,20}$)'],
    ["^[0-9]{4}$", "may hold digits only, exactly 4 of them (pattern ^[0-9]{4}$)"],
    ["^(a|b)+$", "must match the pattern ^(a|b)+$"],
  ])("%s", (pattern, words) => {
    expect(patternWords(pattern)).toBe(words);
  });
});
