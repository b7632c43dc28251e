import { eachObject, isJsonObject, type JsonValue } from "../document/index.js";

/** Whether a value is an instance of a JSON Schema type name. */
function isOfType(value: JsonValue, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "object":
      return isJsonObject(value);
    case "array":
      return Array.isArray(value);
    default:
      return true;
  }
}

/**
 * The enum values the schema's declared type admits (all of them without a type). A `type: object` with string
 * values admits none, so no instance could ever be valid; generators and validators choke on it.
 */
export function enumValuesOfType(values: readonly JsonValue[], type: JsonValue | undefined, nullable = false): JsonValue[] {
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((t) => typeof t === "string") : [];
  if (types.length === 0) return [...values];
  return values.filter((value) => (value === null && nullable) || types.some((t) => isOfType(value, t)));
}

/** Removes, throughout a document, enum values of the wrong type, and enums left empty. */
export function fitEnumsToTypes(root: JsonValue): void {
  eachObject(root, (node) => {
    if (!Array.isArray(node.enum) || (typeof node.type !== "string" && !Array.isArray(node.type))) return;
    const admitted = enumValuesOfType(node.enum, node.type, node.nullable === true);
    if (admitted.length === 0) delete node.enum;
    else if (admitted.length < node.enum.length) node.enum = admitted;
  });
}
