import { unenforcedReason } from "oapi-mcp-gen-runtime";
import type { JsonObject, JsonValue } from "../../openapi/document/index.js";
import { isReferenceObject, markdownText, type SchemaObject } from "../../openapi/model/index.js";
import { enumValuesOfType } from "../../openapi/typing/index.js";
import { UserError } from "../base/errors.js";
import { uniqueValues } from "./long-enums.js";
import { fitValueDepth, moveFormatToHint } from "./schema-keywords.js";

/** Where a schema is, for messages: the operation and the place inside its schema. */
export interface SchemaPlace {
  where: string;
  at: string;
  warn(message: string): void;
}

/**
 * The keywords of one schema object that carry over on their own (everything but its subschemas): portable keywords
 * as written, then `examples`, `type` and exclusive bounds in the form both JSON Schema drafts read.
 */
export function copyKeywords(schema: SchemaObject, place: SchemaPlace): JsonObject {
  const out: JsonObject = { ...schema.keywords };
  const at = place.at || "root";
  for (const keyword of ["title", "description"] as const) if (typeof out[keyword] === "string") out[keyword] = markdownText(out[keyword]);
  if (out.pattern !== undefined && typeof out.pattern !== "string") {
    place.warn(`${place.where}: dropped a pattern that is not a string at ${at}`);
    delete out.pattern;
  }
  if (out.format !== undefined) moveFormatToHint(out);
  // Both JSON Schema drafts want an enum's items unique.
  if (Array.isArray(out.enum)) out.enum = uniqueValues(out.enum);
  if (typeof out.pattern === "string" && !isValidPattern(out.pattern)) {
    const unescaped = withoutNeedlessEscapes(out.pattern);
    if (isValidPattern(unescaped)) {
      // `^[a-zA-Z0-9\-\_]`: `\_` means `_`, but Unicode-mode regular expressions (JSON Schema validators) refuse it.
      out.pattern = unescaped;
    } else {
      place.warn(
        `${place.where}: dropped pattern ${JSON.stringify(out.pattern)} at ${at} (not a valid regular expression in Unicode mode, as JSON Schema validators read it)`,
      );
      delete out.pattern;
    }
  }
  const unenforced = typeof out.pattern === "string" ? unenforcedReason(out.pattern) : undefined;
  if (typeof out.pattern === "string" && unenforced !== undefined) {
    place.warn(
      `${place.where}: pattern ${JSON.stringify(out.pattern.slice(0, 80))} at ${at} is not one the server's linear-time matcher (RE2) can run (${unenforced.slice(0, 120)}): it is shown to clients but not enforced`,
    );
  }
  if (schema.example !== undefined && out.examples === undefined) out.examples = [schema.example];
  // An example given as a reference object is OpenAPI misuse, not data: drop it rather than publish a dangling $ref.
  if (Array.isArray(out.examples)) out.examples = out.examples.filter((example) => !isReferenceObject(example));
  if (!Array.isArray(out.examples) || out.examples.length === 0) delete out.examples;
  const tooDeep = fitValueDepth(out, (message) => place.warn(`${place.where}: ${message} at ${at}`));
  if (tooDeep !== undefined) throw new UserError(`${place.where}: ${tooDeep} at ${at}`);
  if (schema.type !== undefined) out.type = schema.type;
  if (Array.isArray(out.enum)) fitEnum(out, out.enum, schema.nullable, place);
  copyExclusiveBounds(schema, out);
  return out;
}

/** Drops enum values the declared type rejects (and an enum left empty), saying which. */
function fitEnum(out: JsonObject, values: JsonValue[], nullable: boolean, place: SchemaPlace): void {
  const admitted = enumValuesOfType(values, out.type, nullable);
  if (admitted.length === values.length) return;
  const kept = new Set(admitted);
  const dropped = values.filter((value) => !kept.has(value));
  place.warn(
    `${place.where}: dropped enum value(s) ${JSON.stringify(dropped).slice(0, 120)} at ${place.at || "root"}: not of type ${JSON.stringify(out.type)}`,
  );
  if (admitted.length === 0) delete out.enum;
  else out.enum = admitted;
}

/** OpenAPI 3.0 writes `exclusiveMinimum: true` beside `minimum`; both JSON Schema drafts want a number. */
function copyExclusiveBounds(schema: SchemaObject, out: JsonObject): void {
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    const value = schema[exclusive];
    const limit = schema[bound];
    if (typeof value === "number") out[exclusive] = value;
    else if (value === true && limit !== undefined) {
      out[exclusive] = limit;
      delete out[bound];
    }
  }
}

/** Characters that keep their backslash in a Unicode-mode regular expression when escaped as themselves. */
const SYNTAX_CHARACTERS = new Set([..."^$\\.*+?()[]{}|/-"]);

/**
 * A pattern with the escapes of plain punctuation (`\_`, `\@`, `\:`, and `\-` outside a class) written as the
 * character itself: the same expression without the Unicode flag, and one that compiles with it. Escapes of letters,
 * digits and syntax stay.
 */
function withoutNeedlessEscapes(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] ?? "";
    const next = pattern[index + 1];
    if (character !== "\\" || next === undefined) {
      if (character === "[") inClass = true;
      else if (character === "]") inClass = false;
      out += character;
      continue;
    }
    // `\-` keeps its backslash only inside a class.
    const kept = /[A-Za-z0-9]/.test(next) || (SYNTAX_CHARACTERS.has(next) && (next !== "-" || inClass));
    out += kept ? `\\${next}` : next;
    index++;
  }
  return out;
}

function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}
