import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { writeOutput } from "../../generator/output/index.js";

/**
 * Writes generated files to `<folder>/generated` (a folder two levels under the repository) and type-checks them
 * under the project's strict settings against the runtime's built declarations, as a user's build of the generated
 * package does (`npm test` builds them first; the runtime's own sources are checked by the type-checking test). It writes
 * declarations as the generated tree's own build does (`declaration: true`: a type too long to write, TS7056, fails
 * only then); returns tsc's output (empty when clean).
 */
export async function writeAndTypecheck(folder: string, files: Parameters<typeof writeOutput>[1]): Promise<string> {
  await writeOutput(join(folder, "generated"), files);
  await writeFile(
    join(folder, "tsconfig.json"),
    JSON.stringify({
      extends: "../../tsconfig.base.json",
      compilerOptions: { declaration: true, emitDeclarationOnly: true, outDir: "declarations", rootDir: "." },
      include: ["generated"],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [createRequire(import.meta.url).resolve("typescript/bin/tsc"), "-p", join(folder, "tsconfig.json")],
    { encoding: "utf8" },
  );
  return tsc.stdout + tsc.stderr;
}
