import { setOwn } from "oapi-mcp-gen-runtime";
import { isJsonObject, type JsonObject, type JsonValue } from "../../openapi/document/index.js";
import type { Schema, SchemaCatalog, SchemaObject } from "../../openapi/model/index.js";
import { decodeToken, encodeToken } from "../../openapi/references/index.js";

/** A value the builder could not infer from the document: where it is and why a placeholder stands there. */
export interface Unresolved {
  where: "server" | "path" | "query" | "header" | "cookie" | "body" | "credentials";
  name: string;
  reason: string;
}

/** How deep and how large a built sample may grow. */
const MAX_DEPTH = 8;
const MAX_NODES = 500;

/** Builds a JSON sample from a schema: examples, defaults, const and enum first, then typed placeholders it marks. */
export class SampleBuilder {
  private nodes = 0;

  constructor(
    private readonly schemas: SchemaCatalog,
    private readonly unresolved: Unresolved[],
    /** Which top-level properties to build (the others the caller gives). */
    private readonly wanted: (property: string) => boolean = () => true,
  ) {}

  /** A sample of `schema`; `pointer` names its place in the body (`/user/name`) for the marks. */
  build(schema: Schema | undefined, pointer = "", depth = 0): JsonValue {
    const object = this.resolve(schema);
    if (object === undefined) return this.mark(pointer, "the schema allows any value", {});
    const given = documented(object);
    if (given !== undefined) return given;
    if (++this.nodes > MAX_NODES || depth > MAX_DEPTH) return this.mark(pointer, "the schema nests too deep to build", null);
    if (object.allOf) return this.merged(object.allOf, pointer, depth);
    const variant = object.oneOf?.[0] ?? object.anyOf?.[0];
    if (variant !== undefined) return this.build(variant, pointer, depth + 1);
    const type = typeOf(object);
    if (type === "object") return this.object(object, pointer, depth);
    if (type === "array") return [this.build(object.items, `${pointer}/0`, depth + 1)];
    if (type === "integer" || type === "number") return this.mark(pointer, `no example or default (${type})`, object.minimum ?? 0);
    if (type === "boolean") return this.mark(pointer, "no example or default (boolean)", false);
    if (type === "null") return null;
    return this.mark(
      pointer,
      `no example or default (string${object.format ? `, ${object.format}` : ""})`,
      `{${placeholderName(pointer)}}`,
    );
  }

  /** The required properties (all documented ones when none is required), read-only ones left out. */
  private object(object: SchemaObject, pointer: string, depth: number): JsonObject {
    const result: JsonObject = {};
    const properties = [...(object.properties ?? [])];
    const required = new Set(object.required ?? []);
    const chosen = properties.filter(([name, property]) => {
      if (depth === 0 && !this.wanted(name)) return false;
      const resolved = this.resolve(property);
      if (resolved?.readOnly) return false;
      return required.size > 0 ? required.has(name) : resolved !== undefined && documented(resolved) !== undefined;
    });
    for (const [name, property] of chosen) setOwn(result, name, this.build(property, `${pointer}/${encodeToken(name)}`, depth + 1));
    return result;
  }

  private merged(parts: readonly Schema[], pointer: string, depth: number): JsonValue {
    // Parts that are not all objects cannot merge: the first part's sample stands, and the parts after are not built.
    const objects: JsonObject[] = [];
    for (const part of parts) {
      const sample = this.build(part, pointer, depth + 1);
      if (!isJsonObject(sample)) return objects[0] ?? sample;
      objects.push(sample);
    }
    // Own keys, one by one: a part's `__proto__` property stays a property, and thousands of parts fit no call's arguments.
    const merged: JsonObject = {};
    for (const sample of objects) for (const [key, value] of Object.entries(sample)) setOwn(merged, key, value);
    return merged;
  }

  private resolve(schema: Schema | undefined): SchemaObject | undefined {
    try {
      return this.schemas.deref(schema);
    } catch {
      return undefined;
    }
  }

  private mark<T extends JsonValue>(pointer: string, reason: string, value: T): T {
    this.unresolved.push({ where: "body", name: pointer === "" ? "/" : pointer, reason });
    return value;
  }
}

/** What the document itself gives for a value: example, examples[0], default, const or the first enum value. */
export function documented(schema: SchemaObject): JsonValue | undefined {
  if (schema.example !== undefined) return schema.example;
  const { examples, default: fallback, const: constant, enum: values } = schema.keywords;
  if (Array.isArray(examples) && examples.length > 0) return examples[0];
  if (fallback !== undefined) return fallback;
  if (constant !== undefined) return constant;
  // Protocol Buffers' enums begin with a "no value" entry (`STATE_UNSPECIFIED`): the first real one is a better guess.
  if (Array.isArray(values) && values.length > 0) return values.find((value) => !/(^|_)UNSPECIFIED$/.test(String(value))) ?? values[0];
  return undefined;
}

function typeOf(schema: SchemaObject): string {
  const type = Array.isArray(schema.type) ? schema.type.find((item) => item !== "null") : schema.type;
  if (type !== undefined) return type;
  if (schema.properties || schema.additionalProperties !== undefined) return "object";
  if (schema.items !== undefined) return "array";
  return "string";
}

function placeholderName(pointer: string): string {
  const last = pointer
    .split("/")
    .filter((segment) => segment !== "" && !/^\d+$/.test(segment))
    .pop();
  return last === undefined ? "value" : decodeToken(last);
}
