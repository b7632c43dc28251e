import { readFile } from "node:fs/promises";
import { Command, CommanderError } from "commander";
import { DocumentParseError } from "../openapi/load.js";
import { readConfigFile } from "./config.js";
import { UserError } from "./errors.js";
import { compareOutput, writeOutput } from "./output.js";
import { RenderCache } from "./render-cache.js";
import { RunManifest } from "./run-manifest.js";

/** Parsed command-line options of the generate command. */
export interface GenerateOptions {
  spec: string;
  out: string;
  config: string;
  check: boolean;
}

/** argv → options; a pure function of its input (commander exits are turned into errors). */
export function parseArguments(argv: readonly string[]): GenerateOptions {
  const program = new Command()
    .name("oapi-mcp-gen")
    .description("Generate a typed MCP server from an OpenAPI document.\n(`oapi-mcp-gen search --help`: the OpenAPI search MCP server.)")
    .argument("<spec>", "OpenAPI document (3.0, 3.1 or Swagger 2.0; YAML or JSON)")
    .requiredOption("-o, --out <dir>", "output directory")
    .option("-c, --config <file>", "config file (YAML or JSON)", "oapi-mcp.config.yaml")
    .option("--check", "compare instead of writing; exit 1 when the output directory is stale", false)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  program.parse(argv, { from: "user" });
  const options = program.opts<{ out: string; config: string; check: boolean }>();
  return { spec: program.args[0] as string, ...options };
}

/** Runs the generator; returns the exit code (0 ok, 1 user error or stale `--check`). */
export async function run(argv: readonly string[]): Promise<number> {
  let options: GenerateOptions;
  try {
    options = parseArguments(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 1;
    throw error;
  }
  try {
    const config = await readConfigFile(options.config);
    const documentBytes = /^https?:\/\//i.test(options.spec) ? undefined : await readFile(options.spec).catch(() => undefined);
    const manifest = documentBytes ? await RunManifest.open(options.out, documentBytes, config) : undefined;
    if (manifest && (await manifest.isCurrent(options.out))) {
      process.stdout.write(
        options.check
          ? `${options.out} is up to date (unchanged inputs)\n`
          : `${options.out} is up to date (unchanged inputs; 0 files changed)\n`,
      );
      return 0;
    }
    const cache = await RenderCache.open(options.out);
    const { generateFromFile } = await import("./generate.js");
    const result = await generateFromFile(options.spec, config, cache);
    const size = `tools/list ${Math.round(result.toolsList.bytes / 1024)} KiB, about ${result.toolsList.tokens} tokens`;
    await cache.save();
    for (const warning of result.warnings) process.stderr.write(`warning: ${warning}\n`);
    if (options.check) {
      const report = await compareOutput(options.out, result.files);
      const stale = [...report.changed.map((p) => `changed: ${p}`), ...report.stale.map((p) => `stale: ${p}`)];
      if (stale.length === 0) {
        await manifest?.record(result.files);
        process.stdout.write(`${options.out} is up to date (${result.tools.length} tools; ${size})\n`);
        return 0;
      }
      process.stderr.write(`${options.out} is out of date; run the generator without --check:\n${stale.map((l) => `  ${l}`).join("\n")}\n`);
      return 1;
    }
    const report = await writeOutput(options.out, result.files);
    await manifest?.record(result.files);
    process.stdout.write(
      `wrote ${result.tools.length} tools to ${options.out} (${report.changed.length} files changed, ${report.stale.length} removed; ${size})\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof UserError || error instanceof DocumentParseError) {
      process.stderr.write(
        `${error.message
          .split("\n")
          .map((line) => `error: ${line}`)
          .join("\n")}\n`,
      );
      return 1;
    }
    throw error;
  }
}
