// Writes the validators a generator run uses, compiled by Ajv ahead of time (its standalone code): the config's, and the
// two meta-schemas every tool schema is checked against. Compiling them took a small document's run 200 ms or more.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { Ajv, type Options } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";

/** The repository root, from the source (scripts/) or the build (dist/scripts/). */
const ROOT = new URL(import.meta.url.includes("/dist/scripts/") ? "../../" : "../", import.meta.url);

/** A committed validator: where it is written, and its text as this Ajv compiles it. */
export interface Validator {
  file: string;
  text(): Promise<string>;
}

/** The module around Ajv's code: a header, `require` for its runtime helpers, and a typed entry point. */
function moduleText(what: string, code: string, entry: string): string {
  return [
    "// @ts-nocheck",
    "/**",
    ` * ${what}: Ajv's standalone code, written by scripts/validators.ts.`,
    " * Do not edit: run `npm run generate:validators` after changing a schema or Ajv (a test fails while they differ).",
    " */",
    'import { createRequire } from "node:module";',
    'import type { ErrorObject } from "ajv";',
    "",
    "const require = createRequire(import.meta.url);",
    code.replace(/^"use strict";/, ""),
    "",
    entry,
    "",
  ].join("\n");
}

/** The standalone code of one schema (by id, or the schema itself) in an Ajv instance. */
function standaloneOf(ajv: Ajv, schema: object | string): string {
  const validate = typeof schema === "string" ? ajv.getSchema(schema) : ajv.compile(schema);
  if (!validate) throw new Error(`Ajv has no schema ${String(schema)}`);
  return standalone.default(ajv, validate);
}

/** ESM standalone code, with the options of the Ajv it stands in for. */
const code = (options: Options): Options => ({ ...options, code: { source: true, esm: true } });

/** The config's settings: every problem at once, defaults filled in, formats left to the generator. */
const CONFIG_OPTIONS: Options = { allErrors: true, strict: true, verbose: true, validateFormats: false, useDefaults: true };
/** The meta-schema checks' settings, as generator/schema/schema-check.ts used them. */
const META_OPTIONS: Options = { strict: false, logger: false };

export const VALIDATORS: Validator[] = [
  {
    file: fileURLToPath(new URL("generator/config/config-check.ts", ROOT)),
    async text() {
      const schema: object = JSON.parse(await readFile(new URL("generator/config.schema.json", ROOT), "utf8"));
      return moduleText(
        "The generator config's validator, for generator/config.schema.json",
        standaloneOf(new Ajv2020(code(CONFIG_OPTIONS)), schema),
        [
          "/** Checks a config (filling in its defaults): null when it is valid, else every problem. */",
          "export function configProblems(value: unknown): ErrorObject[] | null {",
          "  return validate(value) ? null : (validate.errors ?? []);",
          "}",
        ].join("\n"),
      );
    },
  },
  ...(
    [
      ["draft-07", "JSON Schema draft-07", () => new Ajv(code(META_OPTIONS)), "http://json-schema.org/draft-07/schema"],
      ["2020-12", "JSON Schema 2020-12", () => new Ajv2020(code(META_OPTIONS)), "https://json-schema.org/draft/2020-12/schema"],
    ] as const
  ).map(([name, dialect, ajv, id]) => ({
    file: fileURLToPath(new URL(`generator/schema/meta-${name}.ts`, ROOT)),
    async text() {
      return moduleText(
        `The ${dialect} meta-schema's validator (${id})`,
        standaloneOf(ajv(), id),
        [
          `/** What the ${dialect} meta-schema finds wrong with a schema; undefined when it is valid. */`,
          "export function metaSchemaErrors(schema: unknown): ErrorObject[] | undefined {",
          "  return validate(schema) ? undefined : [...(validate.errors ?? [])];",
          "}",
        ].join("\n"),
      );
    },
  })),
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const validator of VALIDATORS) {
    await writeFile(validator.file, await validator.text());
    process.stdout.write(`wrote ${validator.file}\n`);
  }
}
