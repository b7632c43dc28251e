import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { DocumentParseError, readOverlay } from "../../openapi/document/index.js";
import { mayHaveExternalRefs } from "../../openapi/references/index.js";
import { type GenerationPaths, shellWord } from "../../templates/deploy.js";
import { oneLine } from "../../templates/literal.js";
import { sha256Hex } from "../base/digest.js";
import { ConfigShapeError, SelectionError, UserError } from "../base/errors.js";
import { packageVersion } from "../base/package-version.js";
import { Progress } from "../base/progress.js";
import { NO_CLOCK, StageClock } from "../base/stage-clock.js";
import { RenderCache } from "../cache/render-cache.js";
import type { GeneratorConfig } from "../config/config.js";
import type { GenerationResult } from "../generate.js";
import { ignoredFiles } from "../output/git-ignored.js";
import { checkOutputFolder, compareOutput, encodedFiles, fileDigests, foreignFiles, writeOutput } from "../output/output.js";
import { isGeneratedFile, pathKind } from "../output/output-files.js";
import { type RuntimeSource, runtimeTarball, VENDOR_FOLDER } from "../output/vendor-runtime.js";
import { SideThread } from "../threads/side-thread.js";
import { RunManifest } from "./run-manifest.js";

/** A document this large (a few hundred operations) has its side thread started before it is read. */
const WARM_SIDE_THREAD_BYTES = 512 * 1024;
/** The config file a run reads when `--config` is not given. */
export const DEFAULT_CONFIG = "oapi-mcp.config.yaml";

/** Parsed command-line options of the generate command. */
export interface GenerateOptions {
  spec: string;
  out: string;
  /** The config file, or undefined to select every operation (no `--config` and no default file). */
  config: string | undefined;
  check: boolean;
  quiet: boolean;
  /** Print how long each stage took, and the CPU time, on stderr. */
  timings: boolean;
  /** Where the generated package gets its runtime (`--runtime vendor` copies it into the folder); unset: as the output has it. */
  runtime?: RuntimeSource;
  /** `--mcpb` (true) or `--no-mcpb` (false): an MCP Bundle besides the config's `server.bundle`; unset: as the output has it. */
  mcpb?: boolean;
  /** `--overlay` files, applied after the config's `overlays`, in order. */
  overlays?: string[];
}

/** The command the user asked for. */
export type CliCommand =
  | { kind: "generate"; options: GenerateOptions }
  | { kind: "init"; spec: string | undefined; config: string; force: boolean; overlays: string[] }
  | { kind: "done"; exitCode: number };

const EXAMPLES = `
Examples:
  $ oapi-mcp-gen init openapi.yaml                 write oapi-mcp.config.yaml listing every operation
  $ oapi-mcp-gen openapi.yaml --out generated      generate the server (every operation when there is no config)
  $ oapi-mcp-gen openapi.yaml --out generated --check
                                                   in CI: exit 1 when generated/ is out of date
  $ cd generated && npm install && npm run build && npm start

The OpenAPI search MCP server:
  search           explore OpenAPI documents from an assistant (oapi-mcp-gen search --help)
`;

const version = packageVersion("oapi-mcp-gen");
const runtimeVersion = packageVersion("oapi-mcp-gen-runtime");

/** The names `init` looks for when it is given no document. */
const DOCUMENT_NAMES = ["openapi.yaml", "openapi.yml", "openapi.json", "swagger.yaml", "swagger.yml", "swagger.json"];

/** The OpenAPI document in the working folder, by its usual names. */
function documentHere(): string {
  const found = DOCUMENT_NAMES.find((name) => existsSync(name));
  if (found === undefined) throw new UserError(`no OpenAPI document given, and none here named ${DOCUMENT_NAMES.join(", ")}`);
  return found;
}

/** The commander program; `actions` receive what was parsed. */
function program(
  onGenerate: (options: GenerateOptions) => void,
  onInit: (spec: string | undefined, config: string, force: boolean, overlays: string[]) => void,
): Command {
  const root = new Command()
    .name("oapi-mcp-gen")
    .usage("<spec> --out <dir> [options]")
    .description("Generate a typed MCP server from an OpenAPI document (3.0, 3.1 or Swagger 2.0; YAML or JSON; a path or URL).")
    .version(version, "-V, --version", "print the version")
    .helpOption("-h, --help", "show this help")
    .argument("[spec]", "the OpenAPI document")
    .option("-o, --out <dir>", "output folder (required; the generator owns it)")
    .option("-c, --config <file>", `config file, YAML or JSON (default: ${DEFAULT_CONFIG} when it exists, else every operation)`)
    .option("--check", "compare instead of writing; exit 1 when the output folder is out of date")
    .option("-q, --quiet", "no progress lines on a terminal")
    .option("--timings", "print the time each stage took, and the CPU time, on stderr")
    .addOption(
      new Option(
        "--runtime <source>",
        "registry: depend on oapi-mcp-gen-runtime from npm; vendor: copy it into <out>/vendor; tarball: from its npm pack tarball in <out> (default: as the folder has it, else registry)",
      ).choices(["registry", "vendor", "tarball"]),
    )
    .option(
      "--mcpb",
      "also an MCP Bundle: manifest.json and npm run bundle, which packs a .mcpb (the config's server.bundle: mcpb; default: as the folder has it)",
    )
    .option("--no-mcpb", "no MCP Bundle unless the config's server.bundle asks for one")
    .option(
      "--overlay <file>",
      "an OpenAPI Overlay applied to the document before anything reads it (repeatable; after the config's overlays)",
      (file: string, earlier: string[] = []) => [...earlier, file],
    )
    .addHelpText("after", EXAMPLES)
    .showSuggestionAfterError(true)
    .enablePositionalOptions()
    .helpCommand("help [command]", "show help for a command")
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text), writeOut: (text) => process.stdout.write(text) })
    .action(
      (
        spec: string | undefined,
        options: {
          out?: string;
          config?: string;
          check?: boolean;
          quiet?: boolean;
          timings?: boolean;
          runtime?: RuntimeSource;
          mcpb?: boolean;
          overlay?: string[];
        },
      ) => {
        if (spec === undefined) {
          root.outputHelp({ error: true });
          throw new CommanderError(1, "oapi.help", "");
        }
        const out = options.out;
        if (out === undefined) {
          root.error("error: missing --out <dir> (where to write the server, e.g. --out generated)");
          return;
        }
        onGenerate({
          spec,
          out,
          config: options.config,
          check: options.check === true,
          quiet: options.quiet === true,
          timings: options.timings === true,
          ...(options.runtime ? { runtime: options.runtime } : {}),
          ...(options.mcpb !== undefined ? { mcpb: options.mcpb } : {}),
          ...(options.overlay ? { overlays: options.overlay } : {}),
        });
      },
    );
  root
    .command("init")
    .description("write a commented config listing every operation by tag, with a default selection")
    .argument("[spec]", `the OpenAPI document (default: the first of ${DOCUMENT_NAMES.join(", ")} here)`)
    .addOption(new Option("-c, --config <file>", "where to write the config").default(DEFAULT_CONFIG))
    .option("--force", "replace an existing config file")
    .option(
      "--overlay <file>",
      "an OpenAPI Overlay applied to the document first (repeatable); the config names it for later runs",
      (file: string, earlier: string[] = []) => [...earlier, file],
    )
    .exitOverride()
    .action((spec: string | undefined, options: { config: string; force?: boolean; overlay?: string[] }) =>
      onInit(spec, options.config, options.force === true, options.overlay ?? []),
    );
  return root;
}

/** argv → the command; a pure function of its input (commander exits are turned into a `done` command). */
export function parseArguments(argv: readonly string[]): CliCommand {
  let command: CliCommand = { kind: "done", exitCode: 0 };
  const cli = program(
    (options) => {
      command = { kind: "generate", options };
    },
    (spec, config, force, overlays) => {
      command = { kind: "init", spec, config, force, overlays };
    },
  );
  try {
    cli.parse(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) return { kind: "done", exitCode: error.exitCode === 0 ? 0 : 1 };
    throw error;
  }
  return command;
}

/** Runs the CLI; returns the exit code (0 ok, 1 user error or stale `--check`). */
export async function run(argv: readonly string[]): Promise<number> {
  const command = parseArguments(argv);
  if (command.kind === "done") return command.exitCode;
  try {
    if (command.kind === "init") {
      const { initConfig } = await import("./init.js");
      const report = await initConfig(command.spec ?? documentHere(), command.config, command.force, command.overlays);
      const [done = "", ...warnings] = report.split(/(?=^warning: )/m);
      process.stdout.write(done);
      if (warnings.length > 0) process.stderr.write(warnings.join(""));
      return 0;
    }
    return await generate(command.options);
  } catch (error) {
    if (error instanceof UserError || error instanceof DocumentParseError) {
      process.stderr.write(`${oneLinePerProblem(error.message)}\n`);
      return 1;
    }
    throw error;
  }
}

/** Generated files the git work tree's ignore rules leave out of a commit: a clean clone (CI, a Docker build) lacks them. */
function gitIgnoredWarning(out: string, files: readonly string[]): string[] {
  const ignored = ignoredFiles(out, files);
  if (ignored.length === 0) return [];
  const shown = ignored.slice(0, 5).map((file) => `${file.path} (${file.rule})`);
  const more = ignored.length > shown.length ? `, and ${ignored.length - shown.length} more` : "";
  return [
    `git ignores ${ignored.length} generated file${ignored.length === 1 ? "" : "s"}, so a clone will lack ${ignored.length === 1 ? "it" : "them"} and --check there fails: ${shown.join(", ")}${more}; add a "!" rule for ${ignored.length === 1 ? "it" : "them"} to the .gitignore named`,
  ];
}

/** Under `--runtime tarball`, the runtime's tarball the folder depends on, when it is not there yet. */
function missingTarball(options: GenerateOptions): string[] {
  if (options.runtime !== "tarball") return [];
  const tarball = runtimeTarball(runtimeVersion);
  if (pathKind(join(options.out, tarball)) === "file") return [];
  return [
    `--runtime tarball: ${join(options.out, tarball)} is not there yet; put the runtime's packed tarball there (the ${tarball} you installed the generator with, or \`npm pack\` of the runtime) before npm install, and commit it (after switching --runtime, run npm install there again: the lockfile still names the old source)`,
  ];
}

/** How an existing generated folder gets its runtime, as its generated package's dependency says. */
function runtimeSourceOf(out: string): RuntimeSource {
  const manifest = join(out, "package.json");
  if (pathKind(manifest) !== "file" || !isGeneratedFile(manifest)) return "registry";
  try {
    const dependencies: unknown = JSON.parse(readFileSync(manifest, "utf8")).dependencies;
    const runtime =
      typeof dependencies === "object" && dependencies !== null
        ? Object.getOwnPropertyDescriptor(dependencies, "oapi-mcp-gen-runtime")?.value
        : undefined;
    if (runtime === `file:${VENDOR_FOLDER}`) return "vendor";
    return typeof runtime === "string" && /^file:oapi-mcp-gen-runtime-[^/]+\.tgz$/.test(runtime) ? "tarball" : "registry";
  } catch {
    return "registry";
  }
}

/** True when an existing generated folder holds an MCP Bundle's manifest it generated (`--mcpb` or the config's). */
function bundledIn(out: string): boolean {
  const manifest = join(out, "manifest.json");
  return pathKind(manifest) === "file" && isGeneratedFile(manifest);
}

/** A selection that does not fit the document, said of the config it came from (and why that config was read). */
function selectionProblem(error: SelectionError, configPath: string, found: boolean): UserError {
  const why = found
    ? [`${configPath} was read because it is in the working folder; for another document, pass --config with its own config`]
    : [];
  return new UserError([...error.problems.map((problem) => `${configPath}: ${problem}`), ...why]);
}

/** `error: …` on every line of a user error. */
function oneLinePerProblem(message: string): string {
  return message
    .split("\n")
    .map((line) => `error: ${oneLine(line, "?")}`)
    .join("\n");
}

/** The repository the working folder is in (the nearest folder with `.git`), else the working folder. */
function projectRoot(): string {
  let project: string | undefined;
  for (let folder = resolve(process.cwd()); ; folder = dirname(folder)) {
    if (pathKind(join(folder, ".git")) !== "none") return folder;
    // Without git, the nearest project (a package.json the generator did not write) is where CI would run.
    const manifest = join(folder, "package.json");
    if (project === undefined && pathKind(manifest) === "file" && !isGeneratedFile(manifest)) project = folder;
    if (dirname(folder) === folder) return project ?? process.cwd();
  }
}

/** Warnings for inputs outside the project: the CI workflow names them, and CI checks out the project alone. */
function outsideProject(paths: GenerationPaths, root: string): string[] {
  return [paths.spec, paths.config].flatMap((path) =>
    path?.startsWith("../")
      ? [`deploy/oapi-mcp-check.yml names ${path}, outside the project at ${root}: CI will not find it there; keep the file in the project`]
      : [],
  );
}

/** A path as CI would type it from the repository's root (the workflow and README name it). */
function asTyped(path: string, root: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  const shown = relative(root, resolve(path)).split(sep).join("/");
  return shown === "" ? "." : shown;
}

/**
 * The config, parsed and checked from the bytes that keyed the run (a file that could not be read is read again, for
 * its error); a config of the wrong shape is reported with every problem the document shows.
 */
async function readConfig(configPath: string, bytes: Buffer | undefined, spec: string): Promise<GeneratorConfig> {
  const { configFromText, readConfigFile } = await import("../config/config.js");
  try {
    return bytes ? configFromText(bytes.toString("utf8"), configPath) : await readConfigFile(configPath);
  } catch (error) {
    if (!(error instanceof ConfigShapeError)) throw error;
    const { allConfigProblems } = await import("../select/config-report.js");
    throw await allConfigProblems(error, spec, configPath);
  }
}

/**
 * The overlay files of a run, in the order they apply: the config's `overlays` (relative to the config file; read
 * leniently here, the config's own check names a bad entry), then `--overlay`'s.
 */
async function overlayFiles(configPath: string | undefined, configBytes: Buffer | undefined, options: GenerateOptions): Promise<string[]> {
  let listed: unknown;
  // Most configs name no overlay: YAML is loaded only for one that might.
  if (configPath && configBytes?.includes("overlays")) {
    const { parse } = await import("yaml");
    try {
      const parsed: unknown = parse(configBytes.toString("utf8"));
      listed = parsed !== null && typeof parsed === "object" && "overlays" in parsed ? parsed.overlays : undefined;
    } catch {
      listed = undefined;
    }
  }
  const folder = dirname(configPath ?? ".");
  const fromConfig = Array.isArray(listed) ? listed.filter((entry) => typeof entry === "string") : [];
  // Named from the working folder, as the run's messages name every file.
  const fromWorkingFolder = fromConfig.map((file) => relative(process.cwd(), resolve(folder, file)) || ".");
  return [...fromWorkingFolder, ...(options.overlays ?? [])];
}

/** Reads the config and the document and generates from them, with a side thread the caller started and closes. */
async function readAndGenerate(
  options: GenerateOptions,
  configPath: string | undefined,
  configBytes: Buffer | undefined,
  paths: GenerationPaths,
  overlayPaths: readonly string[],
  progress: Progress,
  side: SideThread,
  clock: StageClock | undefined,
) {
  const timed = clock ?? NO_CLOCK;
  const config = configPath ? await readConfig(configPath, configBytes, options.spec) : undefined;
  const cache = await timed.time("open the render cache", () => RenderCache.open(options.out));
  const { defaultConfigFor, generateFromFile } = await timed.time("load the generator", () => import("../generate.js"));
  const overlays = await timed.time("read the overlays", () => Promise.all(overlayPaths.map(readOverlay)));
  const result = await generateFromFile(options.spec, config ?? defaultConfigFor, {
    ...(overlays.length > 0 ? { overlays } : {}),
    cache,
    paths,
    side,
    ...(options.runtime ? { runtime: options.runtime } : {}),
    ...(options.mcpb ? { mcpb: true } : {}),
    progress: (stage) => progress.stage(stage),
    ...(clock ? { clock } : {}),
  }).catch((error: unknown) => {
    throw error instanceof SelectionError && configPath ? selectionProblem(error, configPath, options.config === undefined) : error;
  });
  return { result, config, cache };
}

async function generate(options: GenerateOptions): Promise<number> {
  const clock = options.timings ? new StageClock() : undefined;
  try {
    return await generateTimed(options, clock);
  } finally {
    if (clock) process.stderr.write(`${clock.report()}\n`);
  }
}

async function generateTimed(given: GenerateOptions, clock: StageClock | undefined): Promise<number> {
  checkOutputFolder(given.out);
  // Without --runtime, a folder that vendors its runtime keeps doing so (its --check and regeneration stay as they were).
  // Likewise a folder that holds an MCP Bundle's manifest keeps it without --mcpb (--no-mcpb drops it).
  const options: GenerateOptions = {
    ...given,
    runtime: given.runtime ?? runtimeSourceOf(given.out),
    mcpb: given.mcpb ?? bundledIn(given.out),
  };
  const configPath = options.config ?? (pathKind(DEFAULT_CONFIG) === "file" ? DEFAULT_CONFIG : undefined);
  // The config's bytes key the run; it is parsed and checked only when the run generates (its last run did, with them).
  const configBytes = configPath ? await readFile(configPath).catch(() => undefined) : undefined;
  const root = projectRoot();
  const paths: GenerationPaths = {
    spec: asTyped(options.spec, root),
    out: asTyped(options.out, root),
    ...(configPath ? { config: asTyped(configPath, root) } : {}),
    ...(options.overlays ? { overlays: options.overlays.map((file) => asTyped(file, root)) } : {}),
  };
  const progress = new Progress(process.stderr, !options.quiet);
  const timed = clock ?? NO_CLOCK;
  let documentSize = 0;
  const overlayPaths = await overlayFiles(configPath, configBytes, options);
  const manifest = await timed.time("hash the inputs", async () => {
    const documentBytes = /^https?:\/\//i.test(options.spec) ? undefined : await readFile(options.spec).catch(() => undefined);
    documentSize = documentBytes?.length ?? 0;
    // Overlays key the run too; one that cannot be read makes the run generate, and say so.
    const read = await Promise.all(overlayPaths.map((file) => readFile(file).catch(() => undefined)));
    const overlays = read.filter((bytes) => bytes !== undefined);
    if (overlays.length < read.length) return undefined;
    // A multi-file document may change in a file the manifest never saw: such runs always generate.
    const multiFile = documentBytes !== undefined && mayHaveExternalRefs(documentBytes);
    return documentBytes && !multiFile
      ? await RunManifest.open(options.out, documentBytes, {
          config: configBytes ? configBytes.toString("base64") : configPath ? "unreadable" : "all",
          paths,
          runtimeVersion,
          runtime: options.runtime,
          mcpb: options.mcpb,
          overlays: overlays.map((bytes) => sha256Hex(bytes)),
        })
      : undefined;
  });
  const unchanged = manifest !== undefined && (await timed.time("compare inputs with the last run", () => manifest.isCurrent(options.out)));
  if (unchanged) {
    process.stdout.write(`${options.out} is up to date (unchanged inputs${options.check ? "" : "; 0 files changed"})\n`);
    return 0;
  }
  // A large document's side thread starts now, loading TypeScript and prettier while this thread reads the document.
  const side = new SideThread();
  if (documentSize >= WARM_SIDE_THREAD_BYTES) side.warm();
  const { result, config, cache } = await readAndGenerate(
    options,
    configPath,
    configBytes,
    paths,
    overlayPaths,
    progress,
    side,
    clock,
  ).finally(() => side.close());
  progress.done();
  return report(options, { result, config, manifest, paths, root, cache }, clock);
}

/** What a run made and read, for its report. */
interface RunOutcome {
  result: GenerationResult;
  config: GeneratorConfig | undefined;
  manifest: RunManifest | undefined;
  paths: GenerationPaths;
  root: string;
  cache: RenderCache;
}

/** Says what the run made: its warnings, then `--check`'s comparison, or the output written and the run recorded. */
async function report(options: GenerateOptions, outcome: RunOutcome, clock: StageClock | undefined): Promise<number> {
  const { result, config, manifest, paths, root, cache } = outcome;
  const timed = clock ?? NO_CLOCK;
  if (!config) {
    process.stderr.write(
      `note: no ${DEFAULT_CONFIG}: every operation is selected and the server is named "${result.config.server.name}"; run \`oapi-mcp-gen init ${shellWord(options.spec)}\` to choose\n`,
    );
  }
  const mode = result.mode === "tools" ? "" : `${result.mode} mode, `;
  const size = `${mode}tools/list ${Math.round(result.toolsList.bytes / 1024)} KiB, about ${result.toolsList.tokens} tokens`;
  // A discovery server lists three tools whatever the selection: advice to list fewer does not apply to it.
  const { budgetWarning } = await import("../model/tools-list.js");
  const { warningLines } = await import("./warning-lines.js");
  const listWarnings = result.mode !== "tools" ? [] : budgetWarning(result.tools.length, result.toolsList, config?.budget);
  const warnings = [...result.warnings, ...listWarnings, ...outsideProject(paths, root), ...missingTarball(options)];
  // Document text reaches warnings: control characters (terminal escape codes) are shown as `?`.
  for (const warning of warningLines(warnings)) process.stderr.write(`warning: ${oneLine(warning, "?")}\n`);
  const tools = `${result.tools.length} tool${result.tools.length === 1 ? "" : "s"}`;
  // Said once the folder's own .gitignore is in place (written, or there to compare).
  const sayIgnored = () => {
    for (const warning of gitIgnoredWarning(options.out, [...result.files.keys()]))
      process.stderr.write(`warning: ${oneLine(warning, "?")}\n`);
  };
  if (options.check) return reportCheck(options, outcome, { tools, size, sayIgnored }, clock);
  // Encoded and digested once: the same bytes are written, recorded and named by the render cache.
  const bytes = encodedFiles(result.files);
  const written = await timed.time("write the output folder", () => writeOutput(options.out, bytes));
  sayIgnored();
  const digests = fileDigests(bytes);
  await timed.time("record the run", () => manifest?.record(digests));
  await timed.time("save the render cache", () => cache.save({ texts: result.files, digests }));
  const changed = written.changed.length + written.added.length;
  process.stdout.write(
    `wrote ${tools} to ${options.out} (${changed} file${changed === 1 ? "" : "s"} changed, ${written.stale.length} removed; ${size})\n`,
  );
  return 0;
}

/** `--check`'s report: the tree is current (0), or what differs and the command that mends it (1). */
async function reportCheck(
  options: GenerateOptions,
  { result, manifest, paths, cache }: RunOutcome,
  { tools, size, sayIgnored }: { tools: string; size: string; sayIgnored: () => void },
  clock: StageClock | undefined,
): Promise<number> {
  const timed = clock ?? NO_CLOCK;
  sayIgnored();
  // Encoded once: the same bytes are compared and, for the files that hold them, digested.
  const bytes = encodedFiles(result.files);
  const compared = await timed.time("compare with the output folder", () => compareOutput(options.out, bytes));
  const foreign = new Set(foreignFiles(options.out, compared));
  const lines = [
    ...compared.changed.map((p) => (foreign.has(p) ? `not generated, in the way: ${p}` : `changed: ${p}`)),
    ...compared.added.map((p) => `missing: ${p}`),
    ...compared.stale.map((p) => `stale: ${p}`),
  ];
  // The files on disk that hold what this run made: the render cache names them rather than keeping their texts.
  const differs = new Set([...compared.changed, ...compared.added]);
  const texts = new Map([...result.files].filter(([path]) => !differs.has(path)));
  const digests = fileDigests(new Map([...bytes].filter(([path]) => !differs.has(path))));
  await timed.time("save the render cache", () => cache.save({ texts, digests }));
  if (lines.length === 0) {
    await manifest?.record(digests);
    process.stdout.write(`${options.out} is up to date (${tools}; ${size})\n`);
    return 0;
  }
  const again = [
    "oapi-mcp-gen",
    paths.spec,
    ...(paths.config ? ["--config", paths.config] : []),
    "--out",
    paths.out,
    ...(options.runtime && options.runtime !== "registry" ? ["--runtime", options.runtime] : []),
    ...(options.mcpb ? ["--mcpb"] : []),
  ].join(" ");
  process.stderr.write(`${options.out} is out of date; run \`${again}\`:\n${lines.map((l) => `  ${l}`).join("\n")}\n`);
  return 1;
}
