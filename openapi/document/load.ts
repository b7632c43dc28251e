import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { errorCode } from "../fetch/index.js";
import { checkDocumentShape } from "./document-shape.js";
import { DocumentParseError } from "./parse-error.js";
import { isJsonObject, type JsonObject } from "./types.js";

export { DocumentParseError } from "./parse-error.js";

/** The serialisation a document was read from. */
export type DocumentFormat = "json" | "yaml";

/** Chooses JSON or YAML from a content type, then a file name, then the text itself. */
export function detectFormat(text: string, hints: { contentType?: string; fileName?: string } = {}): DocumentFormat {
  const type = hints.contentType?.toLowerCase() ?? "";
  if (/\bjson\b/.test(type)) return "json";
  if (/\byaml\b|\byml\b/.test(type)) return "yaml";
  const name = hints.fileName?.toLowerCase() ?? "";
  if (name.endsWith(".json")) return "json";
  if (name.endsWith(".yaml") || name.endsWith(".yml")) return "yaml";
  return /^\s*[{[]/.test(text) ? "json" : "yaml";
}

/** YAML aliases may be used this often; what they expand to is bounded by `checkDocumentShape`. */
const MAX_ALIASES = 100_000;

/**
 * Parses document text (JSON or YAML) into a JSON object. Nesting depth and the size YAML aliases expand to are
 * bounded; error messages give a position, never the text around it (a refused file's content stays private).
 */
export function parseDocumentText(text: string, format: DocumentFormat, source = "document"): JsonObject {
  let value: unknown;
  let yaml = format === "yaml";
  try {
    // YAML is a superset of JSON, so a JSON document with a stray YAML-ism still loads.
    value = yaml ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    if (yaml) throw new DocumentParseError(`${source}: invalid YAML: ${yamlProblem(error)}`);
    try {
      value = parseYaml(text);
      yaml = true;
    } catch {
      throw new DocumentParseError(`${source}: invalid JSON: ${jsonProblem(error)}`);
    }
  }
  if (!isJsonObject(value)) throw new DocumentParseError(`${source}: expected an object at the top level`);
  checkDocumentShape(value, source, { maxNodes: Math.max(1_000_000, text.length), shared: yaml });
  return value;
}

const YAML_OPTIONS = { maxAliasCount: MAX_ALIASES, merge: true, uniqueKeys: false } as const;

/** The YAML parser, loaded on first use (a run that reads only JSON, or nothing, never needs it). */
let yamlModule: typeof import("yaml") | undefined;
function yamlParser(): typeof import("yaml") {
  if (yamlModule === undefined) {
    const loaded: typeof import("yaml") = createRequire(import.meta.url)("yaml");
    yamlModule = loaded;
  }
  return yamlModule;
}

/** Parses YAML text with the document limits. */
function parseYaml(text: string): unknown {
  return yamlParser().parse(text, YAML_OPTIONS);
}

/** What JSON.parse objected to, and where, without the text it quotes. */
function jsonProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof RangeError) return "nested too deep";
  const position = /position (\d+)/.exec(message)?.[1];
  // V8 quotes the text around the error after a double quote ("Unexpected token 'x', "secret…" is not valid JSON").
  const kind = (message.split('"')[0] ?? "").replace(/ in JSON.*$/, "").replace(/[\s,:]+$/, "");
  return `${kind || "syntax error"}${position !== undefined ? ` at position ${position}` : ""}`;
}

/** What the YAML parser objected to and where, without the text it quotes (anything after `: ` may be the document's). */
function yamlProblem(error: unknown): string {
  if (error instanceof RangeError) return "nested too deep";
  const detail = error instanceof yamlParser().YAMLError ? error : undefined;
  const kind = (error instanceof Error ? error.message : "")
    .split("\n")[0]
    ?.replace(/ at line \d+.*$/, "")
    .split(": ")[0]
    ?.trim();
  const at = detail?.linePos?.[0];
  return `${kind || detail?.code || "syntax error"}${at ? ` at line ${at.line}, column ${at.col}` : ""}`;
}

/** Reads and parses a document file. */
export async function readDocumentFile(path: string): Promise<{ document: JsonObject; format: DocumentFormat }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new DocumentParseError(`${path}: cannot read file (${errorCode(error) ?? firstLine(error)})`);
  }
  const format = detectFormat(text, { fileName: path });
  return { document: parseDocumentText(text, format, path), format };
}

function firstLine(error: unknown): string {
  return (String(error instanceof Error ? error.message : error).split("\n")[0] ?? "").replace(/:\s*$/, "");
}

/** Reads a document from a file path or an http(s) URL (the generator's operator is trusted: any address). */
export async function readDocumentSource(source: string): Promise<{ document: JsonObject; format: DocumentFormat; url?: string }> {
  if (!/^https?:\/\//i.test(source)) return readDocumentFile(source);
  const { fetchText, FetchError } = await import("../fetch/index.js");
  try {
    const fetched = await fetchText(
      new URL(source),
      { allowedHosts: new Map(), allowPrivate: true },
      { maxBytes: 100 * 1024 * 1024, timeoutMs: 60_000, maxRedirects: 5 },
    );
    const format = detectFormat(fetched.text, { contentType: fetched.contentType, fileName: fetched.finalUrl.pathname });
    return { document: parseDocumentText(fetched.text, format, source), format, url: fetched.finalUrl.href };
  } catch (error) {
    if (error instanceof FetchError) throw new DocumentParseError(`${source}: ${error.message}`);
    throw error;
  }
}
