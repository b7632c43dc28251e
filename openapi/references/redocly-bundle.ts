/** External references bundled with Redocly's bundler, through a resolver that keeps to the config's policy. */
import { readFile, realpath, stat } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { BaseResolver, bundle, createConfig, Source } from "@redocly/openapi-core";
import { DocumentParseError, isJsonObject, type JsonObject } from "../document/index.js";
import { type AddressPolicy, FetchError, fetchText } from "../fetch/index.js";
import type { ExternalRefPolicy } from "./external-refs.js";

/** Caps on each referenced file or URL. */
const MAX_REFERENCED_BYTES = 20 * 1024 * 1024;

/** Loads referenced files (inside the document's folder unless allowed) and URLs (only when allowed, guarded). */
class GuardedResolver extends BaseResolver {
  constructor(
    private readonly folder: string,
    private readonly policy: ExternalRefPolicy,
  ) {
    super();
  }

  override async loadExternalRef(absoluteRef: string): Promise<Source> {
    if (/^https?:\/\//i.test(absoluteRef)) return this.loadUrl(absoluteRef);
    const shown = relative(this.folder, absoluteRef).split(sep).join("/");
    const real = await realpath(absoluteRef).catch(() => undefined);
    if (real === undefined) throw new Error(`file not found: ${shown}`);
    if (!this.policy.outsideFolder && real !== this.folder && !real.startsWith(`${this.folder}${sep}`)) {
      throw new Error(`${shown} is outside the document's folder (allow it with externalRefs.outsideFolder: true)`);
    }
    if ((await stat(real)).size > MAX_REFERENCED_BYTES) throw new Error(`${shown} is larger than ${MAX_REFERENCED_BYTES} bytes`);
    return new Source(absoluteRef, await readFile(real, "utf8"));
  }

  private async loadUrl(url: string): Promise<Source> {
    if (!this.policy.urls) throw new Error(`references to URLs are off (allow them with externalRefs.urls: true): ${url}`);
    const policy: AddressPolicy = { allowedHosts: this.policy.urls.allowedHosts, allowPrivate: false };
    try {
      const fetched = await fetchText(new URL(url), policy, { maxBytes: MAX_REFERENCED_BYTES, timeoutMs: 30_000, maxRedirects: 5 });
      return new Source(url, fetched.text, fetched.contentType);
    } catch (error) {
      if (error instanceof FetchError) throw new Error(`${url}: ${error.message}`);
      throw error;
    }
  }
}

/** A document with its external `$ref`s bundled in as components by Redocly's bundler; each reference that cannot be followed is one line. */
export async function bundleWithRedocly(document: JsonObject, source: string, policy: ExternalRefPolicy): Promise<JsonObject> {
  const remote = /^https?:\/\//i.test(source);
  const absoluteRef = remote ? source : resolve(source);
  const folder = remote ? "" : await realpath(dirname(absoluteRef));
  const result = await bundle({
    doc: { source: new Source(absoluteRef, JSON.stringify(document)), parsed: structuredClone(document) },
    config: await createConfig({}),
    externalRefResolver: new GuardedResolver(folder, policy),
  });
  const problems = result.problems
    .filter((problem) => problem.severity === "error")
    .map((problem) => `${source}: ${problem.location[0]?.pointer ?? "#"}: ${refProblem(problem.message)}`);
  if (problems.length > 0) throw new DocumentParseError([...new Set(problems)].join("\n"));
  const bundled: unknown = result.bundle.parsed;
  if (!isJsonObject(bundled)) throw new DocumentParseError(`${source}: bundling did not produce a document`);
  return bundled;
}

/** Redocly's message about a reference, in this tool's words. */
function refProblem(message: string): string {
  if (message === "Can't resolve $ref") return "cannot follow $ref: the referenced file has nothing at that pointer";
  return message.replace(/^Can't resolve \$ref: /, "cannot follow $ref: ");
}
