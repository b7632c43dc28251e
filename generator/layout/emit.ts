import { createRequire } from "node:module";
import { type ModuleSource, PRINTED_CODE_SLOT } from "../../templates/literal-slots.js";
import { formatTogether, formatTypeScript } from "./format.js";
import { fillFormattedSlots, fillPrintedSlots } from "./literal-layout.js";
import { stableStatement, statementsOf } from "./statement-layout.js";

// Required, not imported: ts-morph and TypeScript are CommonJS, and an ESM import of them first scans their 9 MB of
// source for export names.
const { printStructure }: typeof import("ts-morph") = createRequire(import.meta.url)("ts-morph");

/** How the modules rendered in this thread were formatted: what the tests of the layouts check they did. */
export const renderCounts = { statements: 0, byPrettier: 0, slots: 0, wholeModules: 0 };

/** Prints a module's ts-morph structure to text (the structure printer alone: nothing is parsed back), its code slots filled. */
export function printedModule(source: ModuleSource): string {
  const text = printStructure(source.structure, { indentNumberOfSpaces: 2, newLine: "\n" });
  return source.code?.length ? fillCodeSlots(text, source.code) : text;
}

/** Writes each code slot's text where its placeholder was printed, its lines after the first indented as ts-morph indents them. */
function fillCodeSlots(text: string, code: readonly string[]): string {
  let filled = 0;
  const result = text.replace(PRINTED_CODE_SLOT, (_match, index: string, indent: string) => {
    filled++;
    return (code[Number(index)] ?? "")
      .split("\n")
      .map((line, at) => (at === 0 || line === "" ? line : indent + line))
      .join("\n");
  });
  if (filled !== code.length) throw new Error(`${code.length - filled} code slot(s) of a module were not printed`);
  return result;
}

/**
 * Formats printed modules: statements of a shape prettier prints as they are (statement-layout.ts) are kept, the
 * others of every module are formatted by prettier in one call.
 */
async function formatModules(printed: readonly string[]): Promise<string[]> {
  const modules = printed.map((text) => statementsOf(text).map((lines) => ({ lines, text: stableStatement(lines) })));
  const unstable = modules.flat().filter((statement) => statement.text === undefined);
  renderCounts.statements += modules.reduce((sum, statements) => sum + statements.length, 0);
  renderCounts.byPrettier += unstable.length;
  // A statement that does not parse alone (a split in the wrong place) sends every module to prettier whole.
  const formatted = await formatTogether(unstable.map(({ lines }) => lines.join("\n"))).catch(() => undefined);
  if (!formatted) return Promise.all(printed.map(formatTypeScript));
  unstable.forEach((statement, index) => {
    statement.text = formatted[index];
  });
  return modules.map((statements) => `${statements.map(({ text }) => text).join("\n")}\n`);
}

/**
 * Renders modules: printed by ts-morph, formatted by prettier around their literal slots, the slots then laid out as
 * prettier lays out their values; a module with a slot whose layout is not modelled is formatted whole.
 */
export async function renderModules(sources: readonly ModuleSource[]): Promise<string[]> {
  const formatted = await formatModules(sources.map(printedModule));
  return Promise.all(
    sources.map(async (source, index) => {
      const text = formatted[index] ?? "";
      if (source.literals.length === 0) return text;
      renderCounts.slots += source.literals.length;
      const filled = fillFormattedSlots(text, source.literals);
      if (filled !== undefined) return filled;
      renderCounts.wholeModules++;
      return renderModuleWhole(source);
    }),
  );
}

/** Renders a module with every slot's value written out and the whole module formatted by prettier. */
export async function renderModuleWhole(source: ModuleSource): Promise<string> {
  return formatTypeScript(fillPrintedSlots(printedModule(source), source.literals));
}
