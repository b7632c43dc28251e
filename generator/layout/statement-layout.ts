/**
 * The top-level statements of a printed module that prettier would print as they are, or (a tool's `defineTool` call
 * around its slot) as modelled here: the rest of a module is left to prettier. What a tool module's skeleton holds:
 * comments, imports, type aliases (the templates write type literals as prettier lays them out) and the definition.
 */
import { util } from "prettier";
import { CLIENT_OPEN, CLIENT_SIGNATURE } from "../../templates/client-module.js";
import { formattedPlaceholder, PLACEHOLDER_PATTERN, PRINT_WIDTH } from "../../templates/literal-slots.js";
import { isPlainMember, isPlainType, isStableLine } from "./stable-lines.js";

/** The printed module's top-level statements, each with its lines; a comment line is a statement of its own. */
export function statementsOf(text: string): string[][] {
  const statements: string[][] = [];
  for (const line of text.replace(/\n$/, "").split("\n")) {
    const continues = line === "" || /^[\s})\]>]/.test(line);
    const last = statements.at(-1);
    if (continues && last && !isComment(last)) last.push(line);
    else statements.push([line]);
  }
  return statements;
}

/** A one-line doc comment, closed once: prettier keeps it as it is written, whatever characters it holds. */
function isDocComment(line: string): boolean {
  return /^\/\*\*.*\*\/$/.test(line) && !line.slice(3, -2).includes("*/");
}

/** Whether a statement is a line comment or a one-line block comment. */
function isComment(lines: readonly string[]): boolean {
  const [line] = lines;
  return lines.length === 1 && line !== undefined && (line.startsWith("//") || (line.startsWith("/*") && line.endsWith("*/")));
}

/** An import or a re-export of named bindings. */
const NAMED =
  /^((?:import|export)(?: type)?) \{ ((?:type )?[A-Za-z_$][\w$]*(?:, (?:type )?[A-Za-z_$][\w$]*)*) \}((?: from (?:")[^"\\]*")?;)$/;
/** An exported array of names, maybe typed (`: readonly ToolDefinition[]`, the registry's `tools`) or `as const`. */
const NAME_ARRAY =
  /^export const ([A-Za-z_$][\w$]*(?:: readonly [A-Za-z_$][\w$]*\[\])?) = \[([A-Za-z_$][\w$]*(?:, [A-Za-z_$][\w$]*)*)\]( as const)?;$/;
/** The client's first line as ts-morph prints it, and its last two (indent stripped). */
const CLIENT_HEAD = `export const createClient = ${CLIENT_SIGNATURE}`;
const CLIENT_CLOSE = ["};", "};"];
/** A client method: a tool's name, its argument type and its constant. */
const METHOD = /^([A-Za-z_$][\w$]*|"[^"\\]*"): \(args: ([A-Za-z_$][\w$]*)\) => call\(([A-Za-z_$][\w$]*), args\),$/;
/** A type alias on one line, its type left to isPlainType. */
const ALIAS = /^(?:export )?type [A-Za-z_$][\w$]* = (.+);$/;
/** A type alias whose type literal is on one line. */
const FLAT_LITERAL = /^(?:export )?type [A-Za-z_$][\w$]* = \{ (.+) \};$/;
/** A tool's definition as the template prints it around its slot. */
const DEFINITION = new RegExp(
  String.raw`^export const ([A-Za-z_$][\w$]*) = defineTool<([A-Za-z_$][\w$]*), ([A-Za-z_$][\w$]*)>\(${PLACEHOLDER_PATTERN}\);$`,
);

/** A shared schema as the template prints it around its slot. */
const SCHEMA = new RegExp(String.raw`^export const ([A-Za-z_$][\w$]*): JsonSchema = ${PLACEHOLDER_PATTERN};$`);

/** A shared schema with its slot's placeholder, laid out as prettier lays it out. */
function schemaLayout(name: string, key: string): string | undefined {
  const head = `export const ${name}: JsonSchema = {`;
  return head.length <= PRINT_WIDTH ? `${head}\n${formattedPlaceholder(key, 2)}\n};` : undefined;
}

/** A tool's definition with its slot's placeholder, laid out as prettier lays it out. */
function definitionLayout(name: string, args: string, result: string, key: string): string | undefined {
  const head = `export const ${name} = defineTool<${args}, ${result}>({`;
  const slot = `${formattedPlaceholder(key, 2)}\n});`;
  if (head.length <= PRINT_WIDTH) return `${head}\n${slot}`;
  // The type arguments break, one a line, when the call's first line does not fit.
  if (`export const ${name} = defineTool<`.length > PRINT_WIDTH || `  ${result}`.length > PRINT_WIDTH) return undefined;
  return `export const ${name} = defineTool<\n  ${args},\n  ${result}\n>({\n${slot}`;
}

/** Named imports or (re-)exports as prettier lays them out: on one line when it fits or names one binding. */
function namedLayout(keyword: string, names: string, tail: string): string {
  const line = `${keyword} { ${names} }${tail}`;
  if (line.length <= PRINT_WIDTH || !names.includes(", ")) return line;
  return `${keyword} {\n${oneALine(names)}\n}${tail}`;
}

/** Comma-separated names, one a line, two columns in, each with its comma. */
function oneALine(names: string): string {
  return names
    .split(", ")
    .map((name) => `  ${name},`)
    .join("\n");
}

/** An exported array of names as prettier lays it out: on one line when it fits, else a name a line. */
function nameArrayLayout(line: string, name: string, items: string, suffix: string): string {
  return line.length <= PRINT_WIDTH ? line : `export const ${name} = [\n${oneALine(items)}\n]${suffix};`;
}

/**
 * The client's methods as prettier lays them out, four columns in: on one line when it fits; else the call under the
 * arrow when `key: (args: T) =>` fits; else the parameter on a line of its own.
 */
function clientLayout(lines: readonly string[]): string | undefined {
  const body = lines.slice(1).map((line) => line.trim());
  const open = body.slice(0, CLIENT_OPEN.length);
  const close = body.slice(body.length - CLIENT_CLOSE.length);
  if (open.join("\n") !== CLIENT_OPEN.join("\n") || close.join("\n") !== CLIENT_CLOSE.join("\n")) return undefined;
  const out = [CLIENT_HEAD, ...CLIENT_OPEN.map((line) => `  ${line}`)];
  for (const line of body.slice(CLIENT_OPEN.length, body.length - CLIENT_CLOSE.length)) {
    if (isDocComment(line)) {
      out.push(`    ${line}`);
      continue;
    }
    if (/[^\u0000-\u007f]/.test(line)) return undefined;
    const method = METHOD.exec(line);
    if (!method) return undefined;
    const [, key, type, constant] = method;
    const whole = `    ${line}`;
    const signature = `    ${key}: (args: ${type}) =>`;
    if (whole.length <= PRINT_WIDTH) out.push(whole);
    else if (signature.length <= PRINT_WIDTH) out.push(signature, `      call(${constant}, args),`);
    else out.push(`    ${key}: (`, `      args: ${type},`, `    ) => call(${constant}, args),`);
  }
  return [...out, "  };", "};"].join("\n");
}

/** A one-line type alias as prettier lays it out; a type that cannot break moves under a statement too wide. */
function aliasLayout(line: string, type: string): string | undefined {
  if (!isPlainType(type)) return undefined;
  if (util.getStringWidth(line) <= PRINT_WIDTH) return line;
  // Names and indexes only (`Operation["responses"]["200"]…`): nothing in the type can break.
  if (!/^[A-Za-z_$][\w$]*(?:\["(?:[^"\\]|\\[^"])*"\])*$/.test(type)) return undefined;
  return `${line.slice(0, line.length - type.length - 2)}\n  ${type};`;
}

/** The statement as prettier prints it, when it is of a shape modelled here; undefined otherwise. */
export function stableStatement(lines: readonly string[]): string | undefined {
  const text = lines.join("\n");
  if (isComment(lines)) return text;
  if (lines[0] === CLIENT_HEAD) return clientLayout(lines);
  // A type literal a member a line: its comments may hold any characters (memberLayout checks each member).
  const [first = "", ...rest] = lines;
  if (/^(?:export )?type [A-Za-z_$][\w$]* = \{$/.test(first) && rest.at(-1)?.trim() === "};") {
    const laidOut = rest.slice(0, -1).map((line) => memberLayout(line.trim()));
    return laidOut.every((member) => member !== undefined) ? [first, ...laidOut, "};"].join("\n") : undefined;
  }
  if (/[^\u0000-\u007f]/.test(text)) return undefined;
  const definition = DEFINITION.exec(text);
  if (definition) return definitionLayout(definition[1] ?? "", definition[2] ?? "", definition[3] ?? "", definition[4] ?? "");
  const schema = SCHEMA.exec(text);
  if (schema) return schemaLayout(schema[1] ?? "", schema[2] ?? "");
  if (rest.length === 0) {
    const named = NAMED.exec(first);
    if (named && (named[1]?.startsWith("export") || named[3] !== ";")) return namedLayout(named[1] ?? "", named[2] ?? "", named[3] ?? "");
    const array = NAME_ARRAY.exec(first);
    if (array) return nameArrayLayout(first, array[1] ?? "", array[2] ?? "", array[3] ?? "");
    const flat = FLAT_LITERAL.exec(first)?.[1];
    if (flat !== undefined)
      return first.length <= PRINT_WIDTH && flat.split("; ").every((member) => isPlainMember(`${member};`)) ? text : undefined;
    const alias = ALIAS.exec(first)?.[1];
    if (alias !== undefined) return aliasLayout(first, alias);
  }
  return undefined;
}

/** A method of the client's type: a tool's name, its argument type and the promise of its result. */
const METHOD_SIGNATURE = /^([A-Za-z_$][\w$]*)\(args: ([A-Za-z_$][\w$]*)\): (Promise<[A-Za-z_$][\w$]*>);$/;

/**
 * A one-line member of a type literal (prettier keeps such a literal broken) as prettier lays it out two columns in: a
 * comment, a plain member that fits, or a method signature (on one line when it fits, else its parameter on a line of its own). Undefined otherwise: a member
 * spanning lines would need its own indents.
 */
function memberLayout(member: string): string | undefined {
  if (isDocComment(member)) return `  ${member}`;
  if (/[^\u0000-\u007f]/.test(member)) return undefined;
  if (isPlainMember(member) && isStableLine(member, 1)) return `  ${member}`;
  const method = METHOD_SIGNATURE.exec(member);
  if (!method) return undefined;
  const [, key, type, result] = method;
  if (`  ${member}`.length <= PRINT_WIDTH) return `  ${member}`;
  const lines = [`  ${key}(`, `    args: ${type},`, `  ): ${result};`];
  return lines.every((line) => line.length <= PRINT_WIDTH) ? lines.join("\n") : undefined;
}
