import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mayHaveExternalRefs } from "../../../openapi/references/index.js";
import { seededRandom } from "../../helpers/seeded-random.js";

const ROOT = join(import.meta.dirname, "../../..");

/** The check as a regular expression over 4 KiB after each `$ref`: what the byte-by-byte reading must agree with. */
function byPattern(bytes: Buffer): boolean {
  for (let at = bytes.indexOf("$ref"); at >= 0; at = bytes.indexOf("$ref", at + 4)) {
    if (/^\$ref["']?\s*:\s*["']?(?!#)[^\s"'#]/.test(bytes.subarray(at, at + 4096).toString("latin1"))) return true;
  }
  return false;
}

const PIECES = [
  "$ref",
  '"',
  "'",
  ":",
  " ",
  "\t",
  "\n",
  "\r",
  "\u00a0",
  "\u0085",
  "#",
  "#/x",
  "a.yaml",
  "é",
  "漢",
  "$re",
  "f",
  "{",
  "}",
  ",",
];

describe("a document's bytes looked at for references to other files", () => {
  it("finds what the pattern finds, on every kind of spacing, quoting and text around a $ref", () => {
    const cases = [
      "$ref: other.yaml",
      '"$ref": "other.yaml#/x"',
      "'$ref' :   'x'",
      '"$ref"\n\n  :\n  "x"',
      '{"$ref": "#/components/schemas/A"}',
      "$ref: '#/a'",
      "$ref:",
      "$ref",
      '"$ref": ""',
      '"$ref": " x"',
      "$ref :\u00a0x",
      "$ref\u0085: x",
      `"$ref":${" ".repeat(5000)}"x"`,
      `"$ref":${" ".repeat(4080)}"x"`,
      "$refs: x",
      "text $ref: x",
    ];
    for (const text of cases)
      expect(mayHaveExternalRefs(Buffer.from(text)), JSON.stringify(text.slice(0, 40))).toBe(byPattern(Buffer.from(text)));
    const next = seededRandom(46);
    let found = 0;
    for (let run = 0; run < 5000; run++) {
      const text = Array.from({ length: 2 + Math.floor(next() * 10) }, () => PIECES[Math.floor(next() * PIECES.length)]).join("");
      const bytes = Buffer.from(text);
      const expected = byPattern(bytes);
      found += expected ? 1 : 0;
      expect(mayHaveExternalRefs(bytes), JSON.stringify(text)).toBe(expected);
    }
    // The random texts hold both answers, many times.
    expect(found).toBeGreaterThan(20);
    expect(found).toBeLessThan(4980);
  });

  it("agrees with the pattern on the real documents", () => {
    for (const file of [
      "examples/memos/openapi.yaml",
      "test/fixtures/docker-engine/swagger.yaml",
      "test/fixtures/kitchen-sink/openapi.yaml",
    ]) {
      const bytes = readFileSync(join(ROOT, file));
      expect(mayHaveExternalRefs(bytes), file).toBe(byPattern(bytes));
    }
  });
});
