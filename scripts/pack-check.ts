// Checks what each package would publish: no test, fixture, source map, build cache or TypeScript source slips into the
// tarball, every entry point it names is in it, and it stays within its size budget. Exits 1 naming each problem.
//
//   node dist/scripts/pack-check.js [package folder ...] [--max-packed BYTES] [--max-unpacked BYTES]
import { execFile as execFileCallback } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs, promisify } from "node:util";

const execFile = promisify(execFileCallback);

/** How large a package's tarball and its unpacked files may grow, in bytes. */
interface PackBudget {
  packed: number;
  unpacked: number;
}

/** Each published package's budget: about half again what it weighs today, so growth is a decision, not a drift. */
const BUDGETS: Readonly<Record<string, PackBudget>> = {
  "oapi-mcp-gen": { packed: 560_000, unpacked: 2_400_000 },
  "oapi-mcp-gen-runtime": { packed: 380_000, unpacked: 1_400_000 },
};

/** Paths a published package must never hold, each with what it is. */
const STRAY: readonly [RegExp, string][] = [
  [/(^|\/)(test|tests|__tests__|fixtures?|__fixtures__|coverage|bench)\//, "a test, fixture or bench folder"],
  [/\.(test|spec)\.[cm]?[jt]sx?$/, "a test file"],
  [/\.map$/, "a source map"],
  [/\.tsbuildinfo$/, "a compiler build cache"],
  [/(?<!\.d)\.[cm]?tsx?$/, "TypeScript source"],
  [/(^|\/)\.(env|npmrc)/, "a settings file that may hold secrets"],
];

/** What `npm pack --dry-run --json` says of one package. */
interface PackReport {
  name: string;
  version: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/** The result of checking one package: a line saying what it weighs, and each problem found. */
interface PackCheck {
  summary: string;
  problems: string[];
}

/** Every file a manifest names as an entry point: main, types, bin and each export target. */
function entryPoints(manifest: Record<string, unknown>): string[] {
  const found: string[] = [];
  const collect = (value: unknown) => {
    if (typeof value === "string") found.push(value);
    else if (value && typeof value === "object") for (const inner of Object.values(value)) collect(inner);
  };
  collect(manifest.main);
  collect(manifest.types);
  collect(manifest.bin);
  collect(manifest.exports);
  return [...new Set(found.map((path) => path.replace(/^\.\//, "")))].filter((path) => !path.includes("*"));
}

/** Kilobytes (1,000 bytes, as npm counts them), for the messages. */
const kb = (bytes: number) => `${Math.round(bytes / 1000)} kB`;

/** Packs a package folder without writing the tarball and checks what it would publish. */
async function checkPack(folder: string, budget?: Partial<PackBudget>): Promise<PackCheck> {
  const manifest = JSON.parse(await readFile(join(folder, "package.json"), "utf8")) as Record<string, unknown>;
  const { stdout } = await execFile("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], {
    cwd: folder,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [report] = JSON.parse(stdout) as PackReport[];
  if (!report) throw new Error(`npm pack said nothing of ${folder}`);
  const limits = { ...BUDGETS[report.name], ...budget };
  const problems: string[] = [];
  if (limits.packed === undefined || limits.unpacked === undefined)
    problems.push(`${report.name} has no size budget: add it to BUDGETS in scripts/pack-check.ts`);
  const paths = new Set(report.files.map((file) => file.path));
  for (const path of paths) {
    const stray = STRAY.find(([pattern]) => pattern.test(path));
    if (stray) problems.push(`${path} is ${stray[1]}: keep it out of "files" (or add it to .npmignore)`);
  }
  for (const entry of entryPoints(manifest)) {
    if (!paths.has(entry)) problems.push(`${entry} is an entry point of package.json but is not in the package`);
  }
  if (limits.packed !== undefined && report.size > limits.packed)
    problems.push(`the tarball is ${kb(report.size)}, over its budget of ${kb(limits.packed)}`);
  if (limits.unpacked !== undefined && report.unpackedSize > limits.unpacked)
    problems.push(`unpacked it is ${kb(report.unpackedSize)}, over its budget of ${kb(limits.unpacked)}`);
  const summary =
    `${report.name}@${report.version}: ${paths.size} files, ${kb(report.size)} packed` +
    (limits.packed === undefined ? "" : ` (budget ${kb(limits.packed)})`) +
    `, ${kb(report.unpackedSize)} unpacked` +
    (limits.unpacked === undefined ? "" : ` (budget ${kb(limits.unpacked)})`);
  return { summary, problems };
}

/** Checks each folder given (by default both packages of this repository) and says what it found. */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { "max-packed": { type: "string" }, "max-unpacked": { type: "string" } },
  });
  const budget: Partial<PackBudget> = {};
  if (values["max-packed"] !== undefined) budget.packed = Number(values["max-packed"]);
  if (values["max-unpacked"] !== undefined) budget.unpacked = Number(values["max-unpacked"]);
  let failed = false;
  for (const folder of positionals.length > 0 ? positionals : [".", "runtime"]) {
    const { summary, problems } = await checkPack(resolve(folder), budget);
    process.stdout.write(`${summary}${problems.length === 0 ? ": ok" : ""}\n`);
    for (const problem of problems) process.stdout.write(`  ${problem}\n`);
    failed ||= problems.length > 0;
  }
  if (failed) process.exitCode = 1;
}

await main();
