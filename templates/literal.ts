/** Escaping helpers: the only way text from an OpenAPI document reaches generated code. */

/** A TypeScript string literal for any text: quotes, backslashes, control characters and invisible marks escaped. */
export function stringLiteral(text: string): string {
  // The runtime's withEscapedMarks, written again: a run that finds nothing changed loads this module, and must not
  // load the runtime with it (test/generator/cli/cli-golden.test.ts counts what it loads).
  return JSON.stringify(text).replace(/[\u2028\u2029\p{Cf}]/gu, (mark) =>
    [...Array(mark.length).keys()].map((at) => `\\u${mark.charCodeAt(at).toString(16).padStart(4, "0")}`).join(""),
  );
}

/** Whether a key or name is an ASCII identifier (written bare, not as a string literal). */
export function isPlainName(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
}

/** A reference to a generated constant inside a JSON value (its name is made by the generator, never by a document). */
export class Identifier {
  constructor(readonly name: string) {
    if (!isPlainName(name)) throw new Error(`not an identifier: ${name}`);
  }
}

/**
 * A TypeScript expression for a JSON value. Keys are string literals; `__proto__` is written as a computed key
 * so it stays an own property instead of setting the prototype.
 */
export function jsonLiteral(value: unknown): string {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`cannot emit non-finite number ${value}`);
    return Object.is(value, -0) ? "0" : String(value);
  }
  if (typeof value === "string") return stringLiteral(value);
  if (value instanceof Identifier) return value.name;
  if (Array.isArray(value)) return `[${value.map(jsonLiteral).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${propertyKey(key)}: ${jsonLiteral(item)}`).join(", ")}}`;
  }
  throw new Error(`cannot emit a ${typeof value} as JSON`);
}

/** An object-literal key: a bare identifier when it is one, a string literal otherwise. */
export function propertyKey(key: string): string {
  if (key === "__proto__") return `[${stringLiteral(key)}]`;
  return isPlainName(key) ? key : stringLiteral(key);
}

/** Text on one line: control characters and line separators (which would start a new line somewhere) replaced. */
export function oneLine(text: string, replacement = " "): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu, replacement);
}

/**
 * Text safe inside a `/** … *\/` comment: one line, no comment terminator, no invisible format character (a comment
 * cannot escape one: it is shown as `?`), bounded length.
 */
export function commentText(text: string, maxLength = 200): string {
  const line = text
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")
    .replace(/\p{Cf}/gu, "?")
    .replace(/\*\//g, "*\\/")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > maxLength ? `${line.slice(0, maxLength - 1)}…` : line;
}

/**
 * Words that cannot name a tool's constant: reserved in strict-mode modules, meaning something else there, or a name
 * the generated modules declare or import beside the tools (`createClient`, `options`, `paths`, …).
 */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await arguments eval undefined NaN Infinity " +
    "createClient toolCaller tools options call args serverIdentity upstream auth defineTool runServer " +
    "paths components operations webhooks"
  ).split(" "),
);

/** `memo_list_memos` → `memoListMemos` (tool names are `[a-z0-9_]`, so the result is always an identifier). */
export function camelIdentifier(toolName: string): string {
  const camel = toolName.replace(/_+([a-z0-9])/g, (_, char: string) => char.toUpperCase()).replace(/_/g, "");
  if (!/^[A-Za-z_$]/.test(camel)) return `tool${camel}`;
  return RESERVED.has(camel) ? `${camel}Tool` : camel;
}

/** `memo_list_memos` → `MemoListMemos`. */
export function pascalIdentifier(toolName: string): string {
  const camel = camelIdentifier(toolName);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}
