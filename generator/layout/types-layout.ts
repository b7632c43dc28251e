/**
 * Formats openapi-typescript's printed module the way prettier does, without handing prettier 4 MB: TypeScript's
 * printer already puts every member of a type on its own line, and prettier only re-indents such a line (four spaces to
 * two, JSDoc lines aligned under their `/**`) unless it is too wide or holds a type that spans lines. Members with such a
 * line go to prettier, in one call, each inside a wrapper at its own depth; a line of any other shape sends the whole
 * module to prettier.
 */
import { formatTogether } from "./format.js";
import { laidOutLine } from "./stable-lines.js";

/** A run of lines, inclusive, that prettier formats: one member and everything in it. */
type Range = [start: number, end: number];

/** The depth of a code line from its four-space indent; undefined for an indent TypeScript's printer does not make. */
function depthOf(line: string): number | undefined {
  const spaces = line.length - line.trimStart().length;
  return spaces % 4 === 0 ? spaces / 4 : undefined;
}

/**
 * The member holding each unstable line at its depth (lines in increasing order): back to the line that starts it (not a
 * closing line), on to the line that ends it (`;` at that depth); undefined when one has no such line. Comment lines
 * are skipped: `code` says which lines are code. Each line is read once going back, and once per depth going on: a
 * union of thousands of objects holds thousands of unstable lines in one member.
 */
function memberRanges(lines: readonly string[], reindented: Reindented): Range[] | undefined {
  const { code, depths, unstable } = reindented;
  const atDepth = (index: number, depth: number) => code[index] === true && depths[index] === depth;
  const lastStart = new Map<number, number>();
  const nextEnd = new Map<number, number>();
  let swept = -1;
  const ranges: Range[] = [];
  for (const at of unstable) {
    const depth = depths[at] ?? 0;
    while (swept < at) {
      swept++;
      if (code[swept] && !lines[swept]?.trimStart().startsWith("}")) lastStart.set(depths[swept] ?? 0, swept);
    }
    const start = lastStart.get(depth);
    if (start === undefined) return undefined;
    let end = nextEnd.get(depth);
    if (end === undefined || end < at) {
      end = at;
      while (end < lines.length && !(atDepth(end, depth) && lines[end]?.endsWith(";"))) end++;
      nextEnd.set(depth, end);
    }
    if (end < lines.length) ranges.push([start, end]);
    else if (depth === 0) ranges.push([start, lines.length - 1]);
    else return undefined;
  }
  return ranges;
}

/** The outermost ranges, in order (a range inside another is formatted with it). */
function outermost(ranges: Range[]): Range[] {
  const sorted = ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const kept: Range[] = [];
  for (const range of sorted) {
    const last = kept.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else kept.push(range);
  }
  return kept;
}

/** A member's lines inside type literals nested to its depth, so prettier indents it as it stands in the module. */
function wrapped(lines: readonly string[], [start, end]: Range, depth: number): string {
  const open = depth === 0 ? [] : ["type __Member = {", ...Array.from({ length: depth - 1 }, () => "m: {")];
  const close = depth === 0 ? [] : [...Array.from({ length: depth - 1 }, () => "};"), "};"];
  return [...open, ...lines.slice(start, end + 1), ...close].join("\n");
}

/** The member's formatted lines, out of its formatted wrapper. */
function unwrapped(formatted: string, depth: number): string[] | undefined {
  const lines = formatted.replace(/\n$/, "").split("\n");
  if (depth === 0) return lines;
  if (lines.length <= depth * 2 || lines[0] !== "type __Member = {") return undefined;
  return lines.slice(depth, lines.length - depth);
}

/** JSDoc lines as prettier prints them at a depth: the opening line trimmed at its end, each further line as ` *…`. */
function commentLines(lines: readonly string[], depth: number): string[] | undefined {
  const indent = " ".repeat(depth * 2);
  const out: string[] = [];
  for (const [index, line] of lines.entries()) {
    const text = line.trim();
    if (index > 0 && !text.startsWith("*")) return undefined;
    out.push(index === 0 ? `${indent}${text}` : `${indent} ${text}`);
  }
  return out;
}

/** The module's lines re-indented, which of them are code and at what depth, and the code lines prettier would change. */
interface Reindented {
  out: (string | undefined)[];
  code: boolean[];
  depths: number[];
  unstable: number[];
}

/** Re-indents the printed lines as prettier would; undefined at a line of a shape TypeScript's printer does not make. */
function reindent(lines: readonly string[]): Reindented | undefined {
  const out: (string | undefined)[] = new Array(lines.length);
  const code: boolean[] = new Array(lines.length).fill(false);
  const depths: number[] = new Array(lines.length).fill(0);
  const unstable: number[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? "";
    const text = line.trim();
    const depth = depthOf(line);
    if (text === "" || depth === undefined) return undefined;
    if (depth === 0 && text.startsWith("//")) {
      out[index] = line;
      continue;
    }
    if (text.startsWith("/*")) {
      let last = index;
      while (!(lines[last] ?? "").includes("*/")) {
        last++;
        if (last >= lines.length) return undefined;
      }
      if (!text.startsWith("/**") || !(lines[last] ?? "").trimEnd().endsWith("*/")) return undefined;
      const comment = last === index ? [`${" ".repeat(depth * 2)}${text}`] : commentLines(lines.slice(index, last + 1), depth);
      if (!comment) return undefined;
      for (const [offset, commentLine] of comment.entries()) out[index + offset] = commentLine;
      index = last;
      continue;
    }
    code[index] = true;
    depths[index] = depth;
    const laidOut = laidOutLine(text, depth);
    out[index] = laidOut ?? `${" ".repeat(depth * 2)}${text}`;
    if (laidOut === undefined) unstable.push(index);
  }
  return { out, code, depths, unstable };
}

/**
 * openapi-typescript's module formatted as prettier formats it: re-indented, the members prettier would change
 * formatted by prettier in one call; undefined where a line is not of a shape modelled here.
 */
export async function formatTypesByMembers(printed: string): Promise<string | undefined> {
  const lines = printed.replace(/\n$/, "").split("\n");
  const laidOut = reindent(lines);
  if (!laidOut) return undefined;
  const { out, depths } = laidOut;
  const ranges = memberRanges(lines, laidOut);
  if (!ranges) return undefined;
  const members = outermost(ranges);
  if (members.length > 0) {
    const texts = members.map((range) => wrapped(lines, range, depths[range[0]] ?? 0));
    // A member that does not parse alone (a range found wrong) sends the module to prettier whole.
    const formatted = await formatTogether(texts).catch(() => undefined);
    if (!formatted) return undefined;
    for (const [index, range] of members.entries()) {
      const memberLines = unwrapped(formatted[index] ?? "", depths[range[0]] ?? 0);
      if (!memberLines) return undefined;
      out.fill(undefined, range[0], range[1] + 1);
      out[range[0]] = memberLines.join("\n");
    }
  }
  return `${out.filter((line) => line !== undefined).join("\n")}\n`;
}
