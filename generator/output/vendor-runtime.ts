import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { GENERATED_HASH_HEADER, GENERATED_HEADER, GENERATED_MARK, GENERATED_MARKDOWN_HEADER } from "../../templates/header.js";

/** Where a vendored runtime lives in the generated folder (a `file:` dependency of its package). */
export const VENDOR_FOLDER = "vendor/oapi-mcp-gen-runtime";

/**
 * How the generated package gets its runtime: from the registry (`^version`), copied into `vendor/`, or from the
 * runtime's packed tarball, which the user places in the generated folder (`npm pack` of it).
 */
export type RuntimeSource = "registry" | "vendor" | "tarball";

/** The runtime's packed tarball, as `npm pack` names it, that `--runtime tarball` expects in the generated folder. */
export function runtimeTarball(version: string): string {
  return `oapi-mcp-gen-runtime-${version}.tgz`;
}

/** The generated package's dependency on the runtime, for each source. */
export function runtimeDependency(source: RuntimeSource, version: string): string {
  if (source === "vendor") return `file:${VENDOR_FOLDER}`;
  if (source === "tarball") return `file:${runtimeTarball(version)}`;
  return `^${version}`;
}

/** What the image copies before it installs: the vendored copy, or the tarball. */
export function runtimeCopies(source: RuntimeSource, version: string): string[] {
  if (source === "vendor") return ["COPY .npmrc ./", "COPY vendor ./vendor"];
  if (source === "tarball") return [`COPY ${runtimeTarball(version)} ./`];
  return [];
}

/**
 * The runtime package this generator depends on, as files of the generated folder: its built modules and declarations
 * (each with the generated header, so regeneration owns them), its LICENSE and README, and its manifest without
 * scripts or development fields. `npm install` in the generated folder then needs no package of ours from a registry;
 * the runtime's own dependencies still come from one.
 */
export function vendoredRuntime(): Map<string, string> {
  const manifestPath = createRequire(import.meta.url).resolve("oapi-mcp-gen-runtime/package.json");
  const root = dirname(manifestPath);
  const manifest: Record<string, unknown> = JSON.parse(readFileSync(manifestPath, "utf8"));
  const { scripts: _scripts, devDependencies: _dev, ...kept } = manifest;
  const files = new Map<string, string>();
  files.set(`${VENDOR_FOLDER}/package.json`, `${JSON.stringify({ "//": GENERATED_MARK, ...kept }, null, 2)}\n`);
  files.set(`${VENDOR_FOLDER}/LICENSE`, `${GENERATED_HASH_HEADER}${readFileSync(join(root, "LICENSE"), "utf8")}`);
  files.set(`${VENDOR_FOLDER}/README.md`, `${GENERATED_MARKDOWN_HEADER}${readFileSync(join(root, "README.md"), "utf8")}`);
  const built = readdirSync(join(root, "dist"), { recursive: true, encoding: "utf8" }).map((name) => name.split(sep).join("/"));
  for (const name of built.sort()) {
    if (!name.endsWith(".js") && !name.endsWith(".d.ts")) continue;
    files.set(`${VENDOR_FOLDER}/dist/${name}`, `${GENERATED_HEADER}${readFileSync(join(root, "dist", name), "utf8")}`);
  }
  return files;
}

/** The generated folder's `.npmrc` in vendor mode: the `file:` runtime is installed as a copy with its dependencies. */
export function vendorNpmrc(): string {
  return `${GENERATED_HASH_HEADER}# The runtime is vendored (${VENDOR_FOLDER}): install it as a copy, its dependencies hoisted.\ninstall-links=true\n`;
}
