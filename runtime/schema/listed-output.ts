import { isRecord, setOwn } from "../base/own-property.js";
import type { JsonSchema, ToolDefinition } from "../base/tool.js";
import { freeKey, portableSchema } from "./portable-schema.js";
import type { Fitted } from "./schema-fit.js";
import { mapSubschemas, refTo } from "./schema-walk.js";

/** What a listed result leaves out: titles, sample values and limits a reader of a result does not need (checks keep them). */
const LEFT_OUT = new Set([
  "title",
  "examples",
  "example",
  "readOnly",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
]);

/** The root description of a listed result that accepts what the API really returns. */
const PASSED_ON = "Documented as $defs/%s; a result that differs is passed on as sent.";

/**
 * The output schema `tools/list` shows for a tool. Under `output.validate: strict` it is the document's schema, which
 * results must match. Under `warn` (the default) and `off` it is the same shape, in `$defs`, under a root that
 * accepts any object (`anyOf: [shape, not shape]`): a client reads every property, type and description the document
 * gives, and a successful call whose result strays from the document still reaches it as structured content. Each
 * tool's schema stands alone, without sample values or value limits, and says each thing the way every client reads it.
 */
export function listedOutputSchema(
  tool: ToolDefinition,
  fit: (schema: JsonSchema) => Fitted = (schema) => ({ schema, cut: false }),
): Fitted | undefined {
  if (tool.outputSchema === undefined) return undefined;
  const { schema, cut } = fit(briefly(tool.outputSchema));
  return { schema: portableSchema((tool.outputValidation ?? "warn") === "strict" ? schema : acceptingAnyObject(schema)), cut };
}

/** A schema without the keywords listings leave out (properties of those names stay: only keywords go). */
export function briefly(node: JsonSchema): JsonSchema {
  const out = mapSubschemas(node, briefly);
  for (const keyword of LEFT_OUT) delete out[keyword];
  return out;
}

/** The schema moved into `$defs` under a root that admits every object, whether or not it matches. */
function acceptingAnyObject(schema: JsonSchema): JsonSchema {
  const { $defs, ...shape } = schema;
  const defs = isRecord($defs) ? $defs : {};
  const key = freeKey("result", defs);
  const listedDefs = setOwn({}, key, shape);
  for (const [name, def] of Object.entries(defs)) setOwn(listedDefs, name, def);
  return {
    type: "object",
    description: PASSED_ON.replace("%s", key),
    anyOf: [{ $ref: refTo(key) }, { not: { $ref: refTo(key) } }],
    $defs: listedDefs,
  };
}
