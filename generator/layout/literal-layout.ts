/**
 * Lays out the JSON values left in a module's literal slots line by line as prettier lays them out (print width 100,
 * two-space indent, trailing commas), so the tool schemas, most of a generated server's text, are not parsed and
 * printed again. Prettier's rules for object and array literals, applied here:
 * - a group stays on one line when it fits with the comma after it; an array of two or more objects (or arrays) of
 *   two or more entries each always breaks, and so does everything that holds one;
 * - a property's string value moves to the next line when it does not fit, unless the key is under five columns wide;
 *   so do null and names (numbers and booleans never move); an object or array value opens on the key's line;
 * - an array of numbers fills its lines.
 */
import {
  FORMATTED_PLACEHOLDER_PATTERN,
  flat,
  type LiteralEntry,
  type LiteralNode,
  PLACEHOLDER_PATTERN,
  PRINT_WIDTH,
  slotIndex,
} from "../../templates/literal-slots.js";

/** Prettier never moves a value off the line of a key narrower than this (its tab width plus three). */
const SHORT_KEY = 5;

/** Thrown where prettier's layout is not one modelled here: the module is formatted whole instead. */
class UnmodelledLayout extends Error {}

/** Whether a node is an object or array prettier may break. */
function isGroup(node: LiteralNode): node is Extract<LiteralNode, { breaks: boolean }> {
  return node.kind === "object" || node.kind === "array";
}

/** Pushes a broken object's or array's inner lines, `indent` columns in. */
function pushInner(node: Extract<LiteralNode, { breaks: boolean }>, indent: number, lines: string[]): void {
  if (node.kind === "object") pushEntries(node.entries, indent, lines);
  else pushItems(node.items, indent, lines);
}

/** Pushes a value that starts a line after `lead` (a property's key, or nothing for an array item), with its comma. */
function pushValue(node: LiteralNode, indent: number, lines: string[], lead = "", leadWidth = 0): void {
  const pad = " ".repeat(indent);
  if (!isGroup(node) || (!node.breaks && indent + leadWidth + node.width + 1 <= PRINT_WIDTH)) {
    lines.push(`${pad}${lead}${flat(node)},`);
    return;
  }
  lines.push(`${pad}${lead}${node.kind === "object" ? "{" : "["}`);
  pushInner(node, indent + 2, lines);
  lines.push(`${pad}${node.kind === "object" ? "}" : "]"},`);
}

/** Pushes the lines of object entries, `indent` columns in, each ending in a comma. */
function pushEntries(entries: readonly LiteralEntry[], indent: number, lines: string[]): void {
  for (const { key, keyWidth, value } of entries) {
    if (isGroup(value)) {
      // `key: {` must itself fit, or prettier moves the value under the key.
      if (keyWidth >= SHORT_KEY && indent + keyWidth + 3 > PRINT_WIDTH) throw new UnmodelledLayout();
      pushValue(value, indent, lines, `${key}: `, keyWidth + 2);
    } else if (
      indent + keyWidth + 2 + value.width + 1 <= PRINT_WIDTH ||
      keyWidth < SHORT_KEY ||
      value.kind === "number" ||
      value.kind === "boolean"
    ) {
      lines.push(`${" ".repeat(indent)}${key}: ${value.text},`);
    } else {
      lines.push(`${" ".repeat(indent)}${key}:`, `${" ".repeat(indent + 2)}${value.text},`);
    }
  }
}

/** Pushes the lines of array items, `indent` columns in: numbers fill lines, anything else takes a line each. */
function pushItems(items: readonly LiteralNode[], indent: number, lines: string[]): void {
  if (items.every((item) => item.kind === "number" || item.kind === "negative")) {
    let line = "";
    let end = 0;
    for (const item of items) {
      if (line !== "" && end + 1 + item.width + 1 <= PRINT_WIDTH) {
        line += ` ${flat(item)},`;
        end += 1 + item.width + 1;
        continue;
      }
      if (line !== "") lines.push(line);
      line = `${" ".repeat(indent)}${flat(item)},`;
      end = indent + item.width + 1;
    }
    lines.push(line);
    return;
  }
  for (const item of items) pushValue(item, indent, lines);
}

/** The lines of a slot's entries, `indent` columns in, or undefined where the layout is not modelled. */
export function slotLines(node: LiteralNode, indent: number): string[] | undefined {
  if (node.kind !== "object") return undefined;
  const lines: string[] = [];
  try {
    pushEntries(node.entries, indent, lines);
  } catch (error) {
    if (error instanceof UnmodelledLayout) return undefined;
    throw error;
  }
  return lines;
}

const FORMATTED_SLOT = new RegExp(FORMATTED_PLACEHOLDER_PATTERN, "gm");
const PRINTED_SLOT = new RegExp(PLACEHOLDER_PATTERN, "g");

/**
 * Fills the slots of a module prettier formatted around their placeholders; undefined when a slot is not found in
 * order or its layout is not modelled (the caller then formats the module whole).
 */
export function fillFormattedSlots(formatted: string, literals: readonly LiteralNode[]): string | undefined {
  let next = 0;
  let failed = false;
  const filled = formatted.replace(FORMATTED_SLOT, (_match, pad: string, index: string) => {
    const node = literals[Number(index)];
    const lines = Number(index) === next && node ? slotLines(node, pad.length) : undefined;
    next++;
    if (!lines) failed = true;
    return lines?.join("\n") ?? "";
  });
  return failed || next !== literals.length ? undefined : filled;
}

/** Writes each slot's value on one line into the printed module, for prettier to format whole. */
export function fillPrintedSlots(printed: string, literals: readonly LiteralNode[]): string {
  return printed.replace(PRINTED_SLOT, (match, key: string) => {
    const node = literals[slotIndex(key)];
    return node ? flat(node) : match;
  });
}
