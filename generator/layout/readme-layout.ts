/**
 * The README formatted as prettier formats it, its tool table laid out apart: prettier's Markdown printer aligns a
 * table of a thousand tools in half a second, and the table's cells (code spans and plain words) print as they are.
 */
import { util } from "prettier";
import { type ReadmeSource, TOOL_TABLE_LINE, withToolTable } from "../../templates/readme.js";
import { formatDocument } from "./format.js";

/** A cell prettier prints as it is: code spans (no backtick, backslash or pipe, no space at an end) and plain words. */
const PLAIN_CELL = /^(?:`[^`\\|\s](?:[^`\\|]*[^`\\|\s])?`|[A-Za-z0-9,.()/-]+| (?! ))+$/;

/** Rows aligned as prettier aligns a table: every column as wide as its widest cell (at least 3), left-aligned. */
function alignedTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [column, cell] of row.entries()) widths[column] = Math.max(widths[column] ?? 3, util.getStringWidth(cell));
  }
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => `${cell}${" ".repeat((widths[column] ?? 0) - util.getStringWidth(cell))}`).join(" | ")} |`;
  const [header = [], ...body] = rows;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...body.map(line)].join("\n");
}

/** The README formatted by prettier; the tool table laid out apart when its cells print as they are. */
export async function formatReadme(source: ReadmeSource, prettierOnly = false): Promise<string> {
  const whole = () => formatDocument(withToolTable(source), "markdown");
  const cells = source.table.flat();
  if (prettierOnly || !cells.every((cell) => PLAIN_CELL.test(cell))) return whole();
  const parts = (await formatDocument(source.text, "markdown")).split(`\n${TOOL_TABLE_LINE}\n`);
  if (parts.length !== 2) return whole();
  return `${parts[0]}\n${alignedTable(source.table)}\n${parts[1]}`;
}
