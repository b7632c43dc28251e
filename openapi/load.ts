import { readFile } from "node:fs/promises";
import { parse as parseYaml } from "yaml";
import { isJsonObject, type JsonObject } from "./types.js";

/** The serialisation a document was read from. */
export type DocumentFormat = "json" | "yaml";

/** A parse failure with a one-line, user-facing message. */
export class DocumentParseError extends Error {
  override name = "DocumentParseError";
}

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

/** Parses document text (JSON or YAML, aliases bounded) into a JSON object. */
export function parseDocumentText(text: string, format: DocumentFormat, source = "document"): JsonObject {
  let value: unknown;
  try {
    // YAML is a superset of JSON, so a JSON document with a stray YAML-ism still loads.
    value = format === "json" ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 1000, merge: true, uniqueKeys: false });
  } catch (error) {
    if (format === "json") {
      try {
        value = parseYaml(text, { maxAliasCount: 1000 });
      } catch {
        throw new DocumentParseError(`${source}: invalid JSON: ${firstLine(error)}`);
      }
    } else {
      throw new DocumentParseError(`${source}: invalid YAML: ${firstLine(error)}`);
    }
  }
  if (!isJsonObject(value)) throw new DocumentParseError(`${source}: expected an object at the top level`);
  return value;
}

/** Reads and parses a document file. */
export async function readDocumentFile(path: string): Promise<{ document: JsonObject; format: DocumentFormat }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new DocumentParseError(`${path}: cannot read file (${(error as NodeJS.ErrnoException).code ?? firstLine(error)})`);
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
  const { fetchText, FetchError } = await import("./fetch-source.js");
  try {
    const fetched = await fetchText(
      new URL(source),
      { allowedHosts: new Set(), allowPrivate: true },
      { maxBytes: 100 * 1024 * 1024, timeoutMs: 60_000, maxRedirects: 5 },
    );
    const format = detectFormat(fetched.text, { contentType: fetched.contentType, fileName: fetched.finalUrl.pathname });
    return { document: parseDocumentText(fetched.text, format, source), format, url: fetched.finalUrl.href };
  } catch (error) {
    if (error instanceof FetchError) throw new DocumentParseError(`${source}: ${error.message}`);
    throw error;
  }
}
