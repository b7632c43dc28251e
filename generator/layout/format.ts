import { format, version } from "prettier";
import { PRINT_WIDTH } from "../../templates/literal-slots.js";
import { cachedText, contentKey, type RenderCache } from "../cache/render-cache.js";

/** Prettier options pinned here, so no user or repository config changes the output. */
const PRETTIER_OPTIONS = {
  // babel-ts prints what the typescript parser prints (checked on GitHub's whole API) in three quarters of the time.
  parser: "babel-ts",
  printWidth: PRINT_WIDTH,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
  // Generated code has no tagged templates of CSS, GraphQL or HTML to format: not looking for them saves a tenth.
  embeddedLanguageFormatting: "off",
} as const;

/** The settings that decide formatted output: part of every render-cache key. */
export const FORMAT_FINGERPRINT = `prettier ${version} ${JSON.stringify(PRETTIER_OPTIONS)}`;

/** Formats a generated Markdown or YAML file with prettier. */
export async function formatDocument(text: string, parser: "markdown" | "yaml"): Promise<string> {
  return format(text, { parser, printWidth: PRINT_WIDTH, proseWrap: "preserve", endOfLine: "lf" });
}

/**
 * The top-level statements of printed TypeScript, each with the comment lines just above it: a new part starts at an
 * unindented `export` line. Prettier formats top-level statements one by one, so the parts formatted apart join into
 * what the whole would format to.
 */
export function topLevelParts(text: string): string[] {
  const lines = text.split("\n");
  const parts: string[] = [];
  let start = 0;
  for (let index = 1; index < lines.length; index++) {
    if (!lines[index]?.startsWith("export ")) continue;
    let first = index;
    while (first > start && /^(\/\*\*|\/\/| \*)/.test(lines[first - 1] ?? "")) first--;
    if (first === start) continue;
    parts.push(`${lines.slice(start, first).join("\n")}\n`);
    start = first;
  }
  parts.push(lines.slice(start).join("\n"));
  return parts;
}

/**
 * Formats a large generated module one top-level statement at a time through the render cache: when an API changes,
 * only the statements it touched (openapi-typescript's `components`, say, and not `paths` or `operations`) are formatted
 * again.
 */
export async function formatTypeScriptInParts(text: string, cache?: RenderCache): Promise<string> {
  const formatted: string[] = [];
  for (const part of topLevelParts(text)) {
    // A part that does not parse on its own (a split inside a statement) sends the whole module to prettier instead.
    const done = await cachedText(cache, contentKey(`${FORMAT_FINGERPRINT} part`, part), () => formatTypeScript(part)).catch(
      () => undefined,
    );
    if (done === undefined) return formatTypeScript(text);
    formatted.push(done);
  }
  return formatted.join("");
}

/** The line that separates texts formatted in one prettier call (formatTogether declines texts that hold it). */
const BOUNDARY = "// @oapi-mcp-gen boundary\n";

/**
 * Formats texts in one prettier call, which costs a millisecond less per text than a call each: prettier formats
 * top-level statements one by one, so each text's part of the output is what it formats to alone (equal on every golden
 * and on GitHub's whole API). Texts whose boundaries do not come back are formatted one by one.
 */
export async function formatTogether(texts: readonly string[]): Promise<string[]> {
  if (texts.length > 1 && texts.every((text) => !text.includes(BOUNDARY))) {
    const parts = (await formatTypeScript(`${BOUNDARY}${texts.join(`\n${BOUNDARY}`)}\n`).catch(() => "")).split(BOUNDARY);
    if (parts.length === texts.length + 1 && parts[0] === "") return parts.slice(1).map((part) => part.replace(/\n$/, ""));
  }
  return Promise.all(texts.map(async (text) => (await formatTypeScript(text)).replace(/\n$/, "")));
}

/** Formats generated TypeScript with prettier. */
export async function formatTypeScript(text: string): Promise<string> {
  return format(text, PRETTIER_OPTIONS);
}
