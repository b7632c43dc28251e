/**
 * Large JSON values of a generated module, left as slots in its structure: prettier formats the module around a
 * placeholder, and generator/literal-layout.ts lays the value out in the slot the way prettier would have.
 */

import { util } from "prettier";
import type { SourceFileStructure } from "ts-morph";
import { Identifier, isPlainName, jsonLiteral, stringLiteral } from "./literal.js";

/** The print width the generated TypeScript is formatted to (generator/format.ts gives it to prettier). */
export const PRINT_WIDTH = 100;

/**
 * A JSON value as prettier sees it, with its printed text and one-line width: strings, numbers and booleans,
 * negative numbers, other single tokens (null, `{}`, `[]`, constant names), objects and arrays. `breaks`: prettier
 * breaks it whatever the width (an array of two or more objects or arrays with two or more entries each, or
 * anything that holds one).
 */
export type LiteralNode =
  | { kind: "string" | "number" | "boolean" | "negative" | "token"; text: string; width: number }
  | { kind: "object"; entries: LiteralEntry[]; width: number; breaks: boolean }
  | { kind: "array"; items: LiteralNode[]; width: number; breaks: boolean };

/** One object property: its printed key and the key's width. */
export interface LiteralEntry {
  key: string;
  keyWidth: number;
  value: LiteralNode;
}

/**
 * A module's ts-morph structure and the values of its literal slots, in the order the placeholders appear; `code`: the
 * texts of its code slots, by index.
 */
export interface ModuleSource {
  structure: SourceFileStructure;
  literals: LiteralNode[];
  code?: readonly string[];
}

/** The placeholder name of code slot `index`. */
export function codeSlotName(index: number): string {
  return `__oapiMcpGenCode${index}__`;
}

/** A printed code slot's placeholder: its name twice, the second time as ts-morph indents the lines after a first. */
export const PRINTED_CODE_SLOT = /__oapiMcpGenCode(\d+)__\n( *)__oapiMcpGenCode\1__/g;

/**
 * Long code of a module (the client's hundreds of methods), written in after ts-morph prints the rest: its writer
 * reads every character of a text it is given, to track strings and comments. A slot's text holds no string or
 * comment that spans lines, so ts-morph would only have indented its later lines, as generator/layout/emit.ts does.
 */
export class CodeSlots {
  readonly texts: string[] = [];

  /** The placeholder for `text` in a structure: its name on two lines, so the printed module shows their indent. */
  code(text: string): string {
    const name = codeSlotName(this.texts.push(text) - 1);
    return `${name}\n${name}`;
  }
}

/** The property name of slot `index`'s placeholder object. */
function slotKey(index: number): string {
  return `__oapiMcpGenSlot${index}__`;
}

/** The placeholder's string: wider than a line, so prettier breaks the placeholder object as it breaks the value. */
const SLOT_FILL = "x".repeat(PRINT_WIDTH);

/** A placeholder as a template writes it, for a regular expression: its slot's property name is the one group. */
export const PLACEHOLDER_PATTERN = String.raw`\{\s*(__oapiMcpGenSlot\d+__): "${SLOT_FILL}" \}`;

/** A placeholder's property as prettier lays it out, `indent` columns in (the string under its long key). */
export function formattedPlaceholder(key: string, indent: number): string {
  return `${" ".repeat(indent)}${key}:\n${" ".repeat(indent + 2)}"${SLOT_FILL}",`;
}

/** A regular-expression source of formattedPlaceholder at any indent: the indent and the slot's index are the groups. */
export const FORMATTED_PLACEHOLDER_PATTERN = String.raw`^( *)__oapiMcpGenSlot(\d+)__:\n *"${SLOT_FILL}",$`;

/** The slot index a placeholder's property name holds. */
export function slotIndex(key: string): number {
  return Number(/\d+/.exec(key)?.[0]);
}

/** Collects the slots of one module while its structure is built. */
export class LiteralSlots {
  readonly literals: LiteralNode[] = [];

  /** The initializer text of a JSON value: a slot's placeholder when it cannot fit on a line, else its literal. */
  value(value: unknown): string {
    const node = literalNode(value);
    if (!node) return jsonLiteral(value);
    if (node.kind !== "object" || node.width <= PRINT_WIDTH) return flat(node);
    const index = this.literals.push(node) - 1;
    // A newline after the brace makes prettier break the placeholder before measuring it, as a value that must break
    // is broken: the call or declaration around it is laid out the same way for both.
    return `{${node.breaks ? "\n" : " "}${slotKey(index)}: "${SLOT_FILL}" }`;
  }

  /** The module: its structure with these slots. */
  module(structure: SourceFileStructure): ModuleSource {
    return { structure, literals: this.literals };
  }
}

/** A node on one line. */
export function flat(node: LiteralNode): string {
  if (node.kind === "object") return `{ ${node.entries.map(({ key, value }) => `${key}: ${flat(value)}`).join(", ")} }`;
  if (node.kind === "array") return `[${node.items.map(flat).join(", ")}]`;
  return node.text;
}

/** A string literal as prettier prints it: double quotes unless the text holds more of them than single quotes. */
function printedString(text: string): string {
  const raw = stringLiteral(text);
  const content = raw.slice(1, -1);
  return util.getPreferredQuote(content, false) === '"' ? raw : util.makeString(content, "'");
}

/** An object key as prettier prints it; undefined for a non-ASCII key (prettier unquotes ES5 identifier names). */
function printedKey(key: string): string | undefined {
  if (key === "__proto__") return `[${printedString(key)}]`;
  if (isPlainName(key)) return key;
  return /^[\u0000-\u007f]*$/.test(key) ? printedString(key) : undefined;
}

/** A number as prettier prints it (String() text with the exponent's `+` dropped). */
function printedNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`cannot emit non-finite number ${value}`);
  return String(Object.is(value, -0) ? 0 : value).replace("e+", "e");
}

/** A single-token node. */
function token(kind: "string" | "number" | "boolean" | "negative" | "token", text: string): LiteralNode {
  return { kind, text, width: util.getStringWidth(text) };
}

/** Whether prettier breaks an array whatever its width: two or more objects, or arrays, of two or more entries each. */
function alwaysBreaks(items: readonly LiteralNode[]): boolean {
  const first = items[0]?.kind;
  return (
    items.length > 1 &&
    (first === "object" || first === "array") &&
    items.every(
      (item) =>
        (item.kind === "object" && first === "object" && item.entries.length > 1) ||
        (item.kind === "array" && first === "array" && item.items.length > 1),
    )
  );
}

/** The node of a JSON value (as jsonLiteral writes it); undefined when it holds something laid out differently. */
export function literalNode(value: unknown): LiteralNode | undefined {
  if (value === null) return token("token", "null");
  if (typeof value === "boolean") return token("boolean", String(value));
  if (typeof value === "number") {
    const text = printedNumber(value);
    return text.startsWith("-") ? token("negative", text) : token("number", text);
  }
  if (typeof value === "string") return token("string", printedString(value));
  if (value instanceof Identifier) return token("token", value.name);
  if (Array.isArray(value)) {
    if (value.length === 0) return token("token", "[]");
    const items: LiteralNode[] = [];
    for (const item of value) {
      const node = literalNode(item);
      if (!node) return undefined;
      items.push(node);
    }
    const width = items.reduce((sum, item) => sum + item.width, 2 + 2 * (items.length - 1));
    const breaks = alwaysBreaks(items) || items.some((item) => (item.kind === "object" || item.kind === "array" ? item.breaks : false));
    return { kind: "array", items, width, breaks };
  }
  if (typeof value === "object") {
    const entries: LiteralEntry[] = [];
    // A key loop, not Object.entries: no pair array for every property of every schema.
    for (const name in value) {
      if (!Object.hasOwn(value, name)) continue;
      const item: unknown = Reflect.get(value, name);
      if (item === undefined) continue;
      const key = printedKey(name);
      const node = literalNode(item);
      if (key === undefined || !node) return undefined;
      entries.push({ key, keyWidth: util.getStringWidth(key), value: node });
    }
    if (entries.length === 0) return token("token", "{}");
    const width = entries.reduce((sum, entry) => sum + entry.keyWidth + 2 + entry.value.width, 2 + 2 * entries.length);
    const breaks = entries.some(({ value: node }) => (node.kind === "object" || node.kind === "array" ? node.breaks : false));
    return { kind: "object", entries, width, breaks };
  }
  throw new Error(`cannot emit a ${typeof value} as JSON`);
}
