import { createHash } from "node:crypto";
import type { Tool as ListedTool } from "@modelcontextprotocol/sdk/types.js";
import { jsonText } from "./json-text.js";
import { isRecord, setOwn } from "./own-property.js";
import { referencedKeys } from "./schema-walk.js";
import type { JsonSchema } from "./tool.js";

/** Where a shape is written out in full: a tool's output schema, at its root or at one of its `$defs`. */
interface Home {
  tool: string;
  key?: string;
}

/**
 * The list with each large output shape written out once: where it is some tool's whole result, at the first such
 * tool; else in the first tool that lists it. Elsewhere it becomes a short entry that keeps its type and description
 * and names the tool and place holding its properties; what only it reached is left out. A definition stays whole
 * when such a note would not save half of it. Only the listing changes: results are still checked against each
 * tool's whole schema.
 */
export function shareOutputSchemas(tools: readonly ListedTool[]): ListedTool[] {
  // A shape that is some tool's whole result is read there (the first such tool); any other at its first listing.
  const parts = tools.map((tool) => (tool.outputSchema === undefined ? undefined : partsOf(tool.outputSchema as JsonSchema)));
  const results = new Map<string, Home>();
  parts.forEach((part, index) => {
    const name = tools[index]?.name;
    if (part !== undefined && name !== undefined && !results.has(part.rootIdentity)) results.set(part.rootIdentity, { tool: name });
  });
  const homes = new Map<string, Home>();
  return tools.map((tool, index) => {
    const part = parts[index];
    if (part === undefined) return tool;
    return { ...tool, outputSchema: shareSchema(tool.name, part, results, homes) as ListedTool["outputSchema"] };
  });
}

/** An output schema taken apart: its root without `$defs`, its definitions and their identities. */
interface SchemaParts {
  schema: JsonSchema;
  root: JsonSchema;
  defs: Record<string, unknown>;
  identity: (key: string) => string;
  rootIdentity: string;
}

function partsOf(schema: JsonSchema): SchemaParts {
  const defs = isRecord(schema.$defs) ? schema.$defs : {};
  const { $defs: _, ...root } = schema;
  const identity = identities(defs);
  return { schema, root, defs, identity, rootIdentity: identityOf(root, identity) };
}

function shareSchema(tool: string, parts: SchemaParts, results: ReadonlyMap<string, Home>, homes: Map<string, Home>): JsonSchema {
  const { schema, root, defs, identity, rootIdentity } = parts;
  const homeOf = (id: string): Home | undefined => {
    const home = results.get(id) ?? homes.get(id);
    return home && home.tool !== tool ? home : undefined;
  };
  const rootHome = homeOf(rootIdentity);
  if (rootHome !== undefined) {
    const note = pointer(root, rootHome);
    if (worthNoting(schema, note)) return { ...note, type: "object" };
  }
  const kept = new Map<string, unknown>();
  const pending = referencedKeys(root);
  for (let key = pending.shift(); key !== undefined; key = pending.shift()) {
    if (kept.has(key) || !Object.hasOwn(defs, key)) continue;
    const def = defs[key];
    if (!isRecord(def)) {
      kept.set(key, def);
      continue;
    }
    const id = identity(key);
    const home = homeOf(id);
    const note = home !== undefined ? pointer(def, home) : undefined;
    if (note !== undefined && worthNoting(def, note)) {
      kept.set(key, note);
      continue;
    }
    if (!homes.has(id)) homes.set(id, { tool, key });
    kept.set(key, def);
    pending.push(...referencedKeys(def));
  }
  if (kept.size === 0) return root;
  const listedDefs: JsonSchema = {};
  for (const key of Object.keys(defs)) if (kept.has(key)) setOwn(listedDefs, key, kept.get(key));
  return setOwn({ ...root }, "$defs", listedDefs);
}

/** What stands for a shape written out elsewhere: its type and description, then where to read it. */
function pointer(schema: JsonSchema, home: Home): JsonSchema {
  const where =
    home.key === undefined
      ? `The same shape as tool \`${home.tool}\`'s result: its output schema lists the properties.`
      : `Listed in full in the output schema of tool \`${home.tool}\`, at $defs/${home.key}.`;
  const own = typeof schema.description === "string" ? schema.description.trim() : "";
  const description = own === "" ? where : `${own}${/[.!?:]$/.test(own) ? "" : "."} ${where}`;
  return { ...(schema.type !== undefined ? { type: schema.type } : {}), description };
}

/** A note replaces a shape only when it is less than half its size. */
function worthNoting(schema: JsonSchema, note: JsonSchema): boolean {
  return 2 * JSON.stringify(note).length < jsonText(schema).length;
}

/**
 * Each definition's identity: a digest of its JSON and of the identities of the definitions it reaches, so two
 * tools' definitions share one exactly when everything they reach is the same (a cycle is cut at the key it returns to).
 */
function identities(defs: Record<string, unknown>): (key: string) => string {
  const known = new Map<string, string>();
  const open = new Set<string>();
  const of = (key: string): string => {
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    const def = defs[key];
    if (open.has(key) || !Object.hasOwn(defs, key) || !isRecord(def)) return `key:${key}:${JSON.stringify(def ?? null)}`;
    open.add(key);
    const id = identityOf(def, of);
    open.delete(key);
    known.set(key, id);
    return id;
  };
  return of;
}

/** Digests of schemas' own JSON, by object: the tools of a list share their definitions' objects. */
const ownDigests = new WeakMap<object, string>();

function identityOf(schema: JsonSchema, identity: (key: string) => string): string {
  let own = ownDigests.get(schema);
  if (own === undefined) {
    own = createHash("sha256").update(jsonText(schema)).digest("base64");
    ownDigests.set(schema, own);
  }
  const hash = createHash("sha256").update(own);
  for (const key of referencedKeys(schema)) hash.update(`\u0000${key}\u0000${identity(key)}`);
  return hash.digest("base64");
}
