/**
 * Lines of generated TypeScript that prettier prints as they are (bar their indent): the shapes TypeScript's printer,
 * ts-morph and the templates write when a line fits. Anything else is left to prettier.
 */
import { util } from "prettier";
import { PRINT_WIDTH } from "../../templates/literal-slots.js";

/** A string literal prettier prints as it is: double quotes, no escaped double quote in it. */
const STRING = String.raw`"(?:[^"\\]|\\[^"])*"`;
/** A member's key: a name, a quoted name prettier would not unquote, or a whole number. */
const KEY = String.raw`(?:[A-Za-z_$][\w$]*|${STRING}|0|[1-9]\d*)`;
/** A member that opens a type spanning lines. */
const OPENER = new RegExp(
  String.raw`^(?:export type [A-Za-z_$][\w$]* = |export interface [A-Za-z_$][\w$]* |(?:readonly )?${KEY}\??: |\[[A-Za-z_$][\w$]*: string\]: )\{$`,
);
/** A member on one line, its type left to TYPE_TOKEN. */
const MEMBER = new RegExp(String.raw`^(?:export type [A-Za-z_$][\w$]* = |(?:readonly )?${KEY}\??: |\[[A-Za-z_$][\w$]*: string\]: )(.+);$`);
/** The tokens of a one-line type prettier prints as TypeScript does, with the spacing both use. */
const TYPE_TOKEN = new RegExp(
  String.raw`${STRING}|-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?(?![\w.])|[A-Za-z_$][\w$]*| \| | & |, |\[\]|\[|\]|<|>|\(|\)`,
  "y",
);
/** A member on one line, taken apart: what comes before its type, and its type. */
const MEMBER_PARTS = new RegExp(String.raw`^((?:readonly )?${KEY}\??: |\[[A-Za-z_$][\w$]*: string\]: )(.+);$`);
/** A type with nothing in it to break: a string, number or name, maybe indexed (`components["schemas"]["x"]`), maybe `[]`. */
const ATOM = new RegExp(String.raw`^(?:${STRING}|-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?|[A-Za-z_$][\w$]*(?:\[${STRING}\])*)(?:\[\])*$`);
/** A quoted key that is a name: prettier unquotes it. */
const QUOTED_NAME = /^(?:readonly )?"[A-Za-z_$][\w$]*"\??:/;

/** Whether prettier prints a one-line type as it is: known tokens only, parentheses only around an array's item type. */
export function isPlainType(type: string): boolean {
  TYPE_TOKEN.lastIndex = 0;
  let depth = 0;
  while (TYPE_TOKEN.lastIndex < type.length) {
    const match = TYPE_TOKEN.exec(type);
    if (!match) return false;
    if (match[0] === "(") depth++;
    if (match[0] === ")") {
      depth--;
      if (!type.startsWith("[]", TYPE_TOKEN.lastIndex)) return false;
    }
    if (depth < 0) return false;
  }
  return depth === 0 && !/\(\(|\( |\(-?[\w"]+\)/.test(type);
}

/** Whether a one-line member (`key?: type;`, an index signature or a type alias) prints as it is, whatever its width. */
export function isPlainMember(text: string): boolean {
  const type = MEMBER.exec(text)?.[1];
  return type !== undefined && !QUOTED_NAME.test(text) && isPlainType(type);
}

/** Whether prettier leaves a code line (indent stripped) as it is, bar its indent. */
export function isStableLine(text: string, depth: number): boolean {
  if (depth * 2 + util.getStringWidth(text) > PRINT_WIDTH) return false;
  if (text === "}" || text === "};" || text === "}[];") return true;
  if (QUOTED_NAME.test(text)) return false;
  return OPENER.test(text) || isPlainMember(text);
}

/**
 * A code line (indent stripped) inside a type, as prettier prints it at a depth, when it is of a shape modelled here:
 * a stable line as it is; an object type closed as `} | null;` (prettier hugs the object); a line too wide whose type
 * cannot break, as it is; a union too wide of such types under its key, on one line when it fits there, else a member
 * a line. Undefined otherwise.
 */
export function laidOutLine(text: string, depth: number): string | undefined {
  const indent = " ".repeat(depth * 2);
  if (isStableLine(text, depth)) return `${indent}${text}`;
  // Top-level aliases move a union under their `=` first; only members inside types are modelled.
  if (depth === 0 || QUOTED_NAME.test(text)) return undefined;
  if (text === "} | null;") return `${indent}${text}`;
  if (depth * 2 + util.getStringWidth(text) <= PRINT_WIDTH) return undefined;
  if (OPENER.test(text)) return `${indent}${text}`;
  const [, head, type] = MEMBER_PARTS.exec(text) ?? [];
  if (head === undefined || type === undefined) return undefined;
  if (ATOM.test(type)) return `${indent}${text}`;
  const members = type.split(" | ");
  if (members.length < 2 || !members.every((member) => ATOM.test(member))) return undefined;
  if (depth * 2 + 2 + util.getStringWidth(`${type};`) <= PRINT_WIDTH) return `${indent}${head.trimEnd()}\n${indent}  ${type};`;
  const last = members.length - 1;
  return [`${indent}${head.trimEnd()}`, ...members.map((member, index) => `${indent}  | ${member}${index === last ? ";" : ""}`)].join("\n");
}
