import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The version of an installed package (this one included), read from its package.json. */
export function packageVersion(name: string): string {
  const manifest: unknown = require(`${name}/package.json`);
  if (typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string") {
    return manifest.version;
  }
  throw new Error(`${name}/package.json has no version`);
}
