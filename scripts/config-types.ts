import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { compile, type JSONSchema } from "json-schema-to-typescript";
import { format } from "prettier";

/** The repository root, from the source (scripts/) or the build (dist/scripts/). */
const ROOT = new URL(import.meta.url.includes("/dist/scripts/") ? "../../" : "../", import.meta.url);
const SCHEMA = fileURLToPath(new URL("generator/config.schema.json", ROOT));
/** The committed declarations of the config, derived from its schema (a test checks they are current). */
export const CONFIG_TYPES = fileURLToPath(new URL("generator/config/config-types.ts", ROOT));
const HEADER = `/**
 * The generator config's types, derived from generator/config.schema.json by json-schema-to-typescript.
 * Do not edit: run \`npm run generate:config-types\` after changing the schema (a test fails while they differ).
 */
`;

/** A copy of a schema in which every property with a default is required: the config once its defaults are applied. */
function withDefaultsRequired(schema: JSONSchema): JSONSchema {
  const properties = schema.properties;
  if (!properties) return schema;
  const resolved: Record<string, JSONSchema> = {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, property] of Object.entries(properties)) {
    resolved[name] = withDefaultsRequired(property);
    if (property.default !== undefined) required.add(name);
  }
  return { ...schema, properties: resolved, required: [...required] };
}

function isSchema(value: unknown): value is JSONSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of a schema whose references carry nothing beside `$ref` (a sibling would make a second, numbered type). */
function bareReferences(schema: JSONSchema): JSONSchema {
  if (typeof schema.$ref === "string") return { $ref: schema.$ref };
  const copy: JSONSchema = { ...schema };
  if (schema.properties) copy.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, bareReferences(v)]));
  const defs: unknown = schema.$defs;
  if (typeof defs === "object" && defs !== null) {
    copy.$defs = Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, isSchema(v) ? bareReferences(v) : v]));
  }
  return copy;
}

/** The text of generator/config/config-types.ts: the config as written, and as resolved (defaults applied). */
export async function configTypesText(): Promise<string> {
  const schema: JSONSchema = JSON.parse(await readFile(SCHEMA, "utf8"));
  const { title: _, $id: __, ...untitled } = schema;
  const options = {
    bannerComment: "",
    additionalProperties: false,
    strictIndexSignatures: true,
    ignoreMinAndMaxItems: true,
    format: false,
  } as const;
  const written = await compile({ ...bareReferences(untitled), title: "GeneratorConfig" }, "GeneratorConfig", options);
  const resolved = await compile(
    { ...bareReferences(withDefaultsRequired(untitled)), title: "ResolvedConfig", description: "The config with every default applied." },
    "ResolvedConfig",
    { ...options, declareExternallyReferenced: false },
  );
  return format(`${HEADER}${written}\n${resolved}`, { parser: "typescript", printWidth: 140 });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(CONFIG_TYPES, await configTypesText());
  process.stdout.write(`wrote ${CONFIG_TYPES}\n`);
}
