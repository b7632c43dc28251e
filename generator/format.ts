import { createHash } from "node:crypto";
import { format, version } from "prettier";
import type { RenderCache } from "./render-cache.js";

/** Prettier options pinned here, so no user or repository config changes the output. */
const PRETTIER_OPTIONS = {
  // babel-ts prints what the typescript parser prints (checked on GitHub's whole API) in three quarters of the time.
  parser: "babel-ts",
  printWidth: 100,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
} as const;

/** The settings that decide formatted output: part of every render-cache key. */
export const FORMAT_FINGERPRINT = `prettier ${version} ${JSON.stringify(PRETTIER_OPTIONS)}`;

/** Formats a generated Markdown or YAML file with prettier. */
async function formatDocument(text: string, parser: "markdown" | "yaml"): Promise<string> {
  return format(text, { parser, printWidth: 100, proseWrap: "preserve", endOfLine: "lf" });
}

/** formatDocument through the render cache: a large API's README takes prettier half a second. */
export async function formatDocumentCached(text: string, parser: "markdown" | "yaml", cache?: RenderCache): Promise<string> {
  const key = createHash("sha256").update(`${FORMAT_FINGERPRINT} ${parser}\u0000${text}`).digest("hex");
  const hit = cache?.get(key);
  if (hit !== undefined) return hit;
  const formatted = await formatDocument(text, parser);
  cache?.set(key, formatted);
  return formatted;
}

/** Formats generated TypeScript with prettier. */
export async function formatTypeScript(text: string): Promise<string> {
  return format(text, PRETTIER_OPTIONS);
}
