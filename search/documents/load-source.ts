import { lstat, readFile, readlink, realpath, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { type DocumentFormat, detectFormat, parseDocumentText } from "../../openapi/document/index.js";
import { type AddressPolicy, FetchError, type FetchLimits, fetchText } from "../../openapi/fetch/index.js";

/** Where documents may come from. */
export interface SourcePolicy {
  address: AddressPolicy;
  limits: FetchLimits;
  /** Folders local files may be read from (real paths); empty disables local files for tool calls. */
  fileRoots: readonly string[];
}

/** Raw document text and how to read it. */
export interface SourceText {
  text: string;
  format: DocumentFormat;
  /** The URL or absolute path it was read from. */
  origin: string;
}

/** A source that cannot be read; the message is shown to the caller. */
export class SourceError extends Error {
  override name = "SourceError";
}

/** True when the text names an http(s) URL rather than a file. */
export function isUrl(text: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text.trim());
}

/** Reads a document from an http(s) URL or a local file, checking the source policy. */
export async function readSource(source: string, policy: SourcePolicy, options: { trusted?: boolean } = {}): Promise<SourceText> {
  const trimmed = source.trim();
  if (trimmed === "") throw new SourceError("the url (or path) is empty");
  if (isUrl(trimmed) && !trimmed.toLowerCase().startsWith("file://")) {
    let url: URL;
    try {
      url = new URL(trimmed);
    } catch {
      throw new SourceError(`"${trimmed}" is not a valid URL`);
    }
    try {
      const fetched = await fetchText(url, policy.address, policy.limits);
      const fileName = fetched.finalUrl.pathname;
      return {
        text: fetched.text,
        format: detectFormat(fetched.text, { contentType: fetched.contentType, fileName }),
        origin: fetched.finalUrl.href,
      };
    } catch (error) {
      if (error instanceof FetchError) throw new SourceError(error.message);
      throw error;
    }
  }
  const path = trimmed.toLowerCase().startsWith("file://") ? fileUrlPath(trimmed) : resolve(trimmed);
  // Decided before the file system is touched, with one message, so no answer tells whether a path exists.
  if (!options.trusted) {
    if (policy.fileRoots.length === 0) throw new SourceError("loading local files is disabled on this server");
    if (!policy.fileRoots.some((root) => isInside(path, root))) throw new SourceError(outsideRoots(policy));
  }
  const shown = options.trusted ? path : shownPath(path, policy.fileRoots);
  const root = policy.fileRoots.find((candidate) => isInside(path, candidate));
  const real = options.trusted || root === undefined ? await realOrMissing(path) : await realInside(path, root);
  if (real === OUTSIDE) throw new SourceError(outsideRoots(policy));
  if (real === undefined) throw new SourceError(`no such file: ${shown}`);
  const info = await stat(real);
  if (!info.isFile()) throw new SourceError(`not a file: ${shown}`);
  if (info.size > policy.limits.maxBytes) throw new SourceError(`document larger than the ${policy.limits.maxBytes}-byte limit`);
  const text = await readFile(real, "utf8");
  return { text, format: detectFormat(text, { fileName: real }), origin: real };
}

/** A link inside the root that leads outside it. */
const OUTSIDE = Symbol("outside");

/** Links a path may pass through before it is taken for a loop. */
const MAX_LINKS = 40;

/**
 * The real path of `path` inside `root`, resolved one component at a time: a link is followed only when its target is
 * inside the root, so nothing outside the root is ever looked at and a link out of it gives the same answer whether
 * its target exists or not. `OUTSIDE` for a link out, undefined for a missing component.
 */
async function realInside(path: string, root: string, links = { count: 0 }): Promise<string | typeof OUTSIDE | undefined> {
  let current = root;
  for (const part of relative(root, path).split(sep).filter(Boolean)) {
    const next = join(current, part);
    const info = await lstat(next).catch(() => undefined);
    if (info === undefined) return undefined;
    if (!info.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++links.count > MAX_LINKS) return undefined;
    const target = resolve(dirname(next), await readlink(next));
    if (!isInside(target, root)) return OUTSIDE;
    const resolved = await realInside(target, root, links);
    if (typeof resolved !== "string") return resolved;
    current = resolved;
  }
  return current;
}

/** The real path of a trusted path (the operator's own), or undefined when it does not exist. */
async function realOrMissing(path: string): Promise<string | undefined> {
  return realpath(path).catch(() => undefined);
}

function outsideRoots(policy: SourcePolicy): string {
  return `local files may only be loaded from the folder${policy.fileRoots.length > 1 ? "s" : ""} this server was given (its operator names them with --files-root)`;
}

/** A path as errors show it: relative to the files root it is in (never the server's own absolute folders). */
function shownPath(path: string, roots: readonly string[]): string {
  const root = roots.find((candidate) => isInside(path, candidate));
  return root === undefined ? "(outside the files root)" : relative(root, path) || ".";
}

function fileUrlPath(text: string): string {
  try {
    return fileURLToPath(text);
  } catch {
    throw new SourceError("not a valid file: URL");
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Parses source text into a JSON object (errors are one line). */
export function parseSource(source: SourceText) {
  return parseDocumentText(source.text, source.format, source.origin);
}
