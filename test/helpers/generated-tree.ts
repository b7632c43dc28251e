import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { writeOutput } from "../../generator/output/index.js";

/**
 * Writes generated files to `<folder>/generated` (a folder two levels under the repository) and type-checks them
 * with the runtime's sources under the project's strict settings, writing declarations as the generated tree's own
 * build does (`declaration: true`: a type too long to write, TS7056, fails only then); returns tsc's output (empty
 * when clean).
 */
export async function writeAndTypecheck(folder: string, files: Parameters<typeof writeOutput>[1]): Promise<string> {
  await writeOutput(join(folder, "generated"), files);
  await writeFile(
    join(folder, "tsconfig.json"),
    JSON.stringify({
      extends: "../../tsconfig.json",
      compilerOptions: { declaration: true, emitDeclarationOnly: true, outDir: "declarations", rootDir: "../.." },
      include: ["generated", "../../runtime"],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [createRequire(import.meta.url).resolve("typescript/bin/tsc"), "-p", join(folder, "tsconfig.json")],
    { encoding: "utf8" },
  );
  return tsc.stdout + tsc.stderr;
}
