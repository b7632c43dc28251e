import { isJsonObject, type JsonObject } from "../openapi/types.js";
import { words } from "../openapi/words.js";
import type { ToolModel } from "./tool-model.js";

/** `$defs` schemas that several tools contain word for word, emitted once and referenced by constant name. */
export interface SharedSchemas {
  /** Constant name by canonical JSON of the schema. */
  nameByContent: ReadonlyMap<string, string>;
  /** The constants, in a fixed order. */
  constants: [name: string, schema: JsonObject][];
}

/** Finds the `$defs` entries used by at least two tools and names them (`simple-user` → `simpleUserSchema`). */
export function shareSchemas(tools: readonly ToolModel[]): SharedSchemas {
  const uses = new Map<string, { key: string; schema: JsonObject; tools: Set<string> }>();
  for (const tool of tools) {
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      const defs = isJsonObject(schema.$defs) ? schema.$defs : {};
      for (const key of Object.keys(defs).sort()) {
        const def = defs[key];
        if (!isJsonObject(def)) continue;
        const content = JSON.stringify(def);
        const entry = uses.get(content) ?? { key, schema: def, tools: new Set<string>() };
        entry.tools.add(tool.name);
        uses.set(content, entry);
      }
    }
  }
  const nameByContent = new Map<string, string>();
  const constants: [string, JsonObject][] = [];
  const taken = new Set<string>();
  for (const [content, entry] of uses) {
    if (entry.tools.size < 2) continue;
    const base = constantName(entry.key);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    nameByContent.set(content, name);
    constants.push([name, entry.schema]);
  }
  return { nameByContent, constants };
}

function constantName(key: string): string {
  const camel = words(key)
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join("");
  return `${/^[a-z]/.test(camel) ? camel : `schema${camel.charAt(0).toUpperCase()}${camel.slice(1)}`}Schema`;
}
