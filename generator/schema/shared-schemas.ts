import { jsonText, words } from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../../openapi/document/index.js";
import { camelIdentifier } from "../../templates/literal.js";
import type { SharedSchemas } from "../../templates/tool-view.js";
import type { ToolSchemas } from "./json-schema.js";

export type { SharedSchemas };

/** One `$defs` entry as the tools use it: its key, where it appears and by whom. */
interface Use {
  key: string;
  schema: JsonObject;
  tools: Set<string>;
  sides: Set<"Input" | "Output">;
}

/**
 * Finds the `$defs` entries used by at least two tools and names them (`simple-user` → `simpleUserSchema`). A key
 * whose shared versions differ by side (a request drops read-only properties) is named by side:
 * `attachmentInputSchema`, `attachmentOutputSchema`.
 */
export function shareSchemas(tools: readonly ToolSchemas[]): SharedSchemas {
  const uses = new Map<string, Use>();
  for (const tool of tools) {
    for (const [side, schema] of [
      ["Input", tool.inputSchema],
      ["Output", tool.outputSchema],
    ] as const) {
      for (const [key, def] of definitionsOf(schema)) {
        const content = jsonText(def);
        const use = uses.get(content) ?? { key, schema: def, tools: new Set<string>(), sides: new Set() };
        use.tools.add(tool.name);
        use.sides.add(side);
        uses.set(content, use);
      }
    }
  }
  const shared = [...uses].filter(([, use]) => use.tools.size >= 2);
  const versions = new Map<string, number>();
  for (const [, use] of shared) versions.set(use.key, (versions.get(use.key) ?? 0) + 1);
  const nameByContent = new Map<string, string>();
  const constants: [string, JsonObject][] = [];
  // A tool's constant is imported beside the shared ones (a tool named `memo_schema` is `memoSchema`).
  const taken = new Set<string>(tools.map((tool) => camelIdentifier(tool.name)));
  for (const [content, use] of shared) {
    const side = (versions.get(use.key) ?? 0) > 1 && use.sides.size === 1 ? [...use.sides].join("") : "";
    const base = constantName(use.key, side);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    nameByContent.set(content, name);
    constants.push([name, use.schema]);
  }
  return { nameByContent, constants };
}

/** The `$defs` entries of a tool schema, by key in sorted order. */
function definitionsOf(schema: JsonObject): [string, JsonObject][] {
  const defs = schema.$defs;
  if (typeof defs !== "object" || defs === null || Array.isArray(defs)) return [];
  const entries: [string, JsonObject][] = [];
  for (const key of Object.keys(defs).sort()) {
    const def = defs[key];
    if (typeof def === "object" && def !== null && !Array.isArray(def)) entries.push([key, def]);
  }
  return entries;
}

/** `memo-relation` + `Input` → `memoRelationInputSchema`. */
function constantName(key: string, side: string): string {
  const camel = [...words(key), ...(side ? [side] : [])]
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join("");
  return `${/^[a-z]/.test(camel) ? camel : `schema${camel.charAt(0).toUpperCase()}${camel.slice(1)}`}Schema`;
}
