import { format } from "prettier";

/** Prettier options pinned here, so no user or repository config changes the output. */
const PRETTIER_OPTIONS = {
  parser: "typescript",
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

/** Formats generated TypeScript with prettier. */
export async function formatTypeScript(text: string): Promise<string> {
  return format(text, PRETTIER_OPTIONS);
}
