import { isLinearPattern, setOwn } from "oapi-mcp-gen-runtime";
import { enumValuesOfType } from "../openapi/enum-types.js";
import { derefObject, refName, refOf, resolvePointer } from "../openapi/refs.js";
import { isJsonObject, type JsonObject, type JsonValue, type OpenApiDocument } from "../openapi/types.js";
import { UserError } from "./errors.js";
import { declareObjectKeywords, fitValueDepth, moveFormatToHint } from "./schema-keywords.js";

/** Which side of the HTTP exchange a schema describes: `readOnly` leaves requests, `writeOnly` leaves responses. */
export type SchemaDirection = "request" | "response";

/** Keywords whose meaning is the same in JSON Schema draft-07 and 2020-12, copied as they are. */
const PORTABLE_KEYWORDS = new Set([
  "title",
  "description",
  "default",
  "format",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "minimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "readOnly",
  "writeOnly",
  "examples",
  "contentEncoding",
  "contentMediaType",
]);

const MAX_DEPTH = 64;
const MAX_REFERENCE_CHAIN = 1000;

/**
 * Converts OpenAPI schemas into self-contained JSON Schemas that draft-07 and 2020-12 validators read alike.
 * Every referenced component becomes one entry of `defs`, so cycles end at a `$ref`.
 */
export class SchemaConverter {
  /** Converted named schemas, by `$defs` key. */
  readonly defs = new Map<string, JsonObject>();
  readonly warnings: string[] = [];
  private readonly keyByRef = new Map<string, string>();
  /** `$dynamicAnchor` bindings of the schemas being converted, outermost first. @see https://json-schema.org/draft/2020-12/json-schema-core#section-8.2.3.2 */
  private readonly dynamicScopes: Map<string, JsonValue>[] = [];
  private readonly usesDynamicRef = new Map<string, boolean>();
  private refChain = 0;

  constructor(
    private readonly document: OpenApiDocument,
    private readonly direction: SchemaDirection,
    private readonly where: string,
  ) {}

  /** Converts a schema with its outermost `$ref` inlined. */
  convertRoot(node: JsonValue | undefined): JsonObject {
    const ref = refOf(node);
    if (ref === undefined) return this.convert(node, 0, "");
    return this.inScope(node, () => {
      const converted = this.convert(this.resolve(ref), 0, `(${ref})`);
      const siblings = node as JsonObject;
      for (const keyword of ["title", "description"] as const)
        if (typeof siblings[keyword] === "string") converted[keyword] = siblings[keyword];
      return converted;
    });
  }

  /** Runs `convert` with the node's `$dynamicAnchor` definitions bound (an outer binding of the same name wins). */
  private inScope<T>(node: JsonValue | undefined, convert: () => T): T {
    const bindings = new Map<string, JsonValue>();
    const defs = isJsonObject(node) && isJsonObject(node.$defs) ? node.$defs : {};
    for (const def of Object.values(defs)) {
      if (isJsonObject(def) && typeof def.$dynamicAnchor === "string") bindings.set(def.$dynamicAnchor, def);
    }
    if (bindings.size === 0) return convert();
    this.dynamicScopes.push(bindings);
    try {
      return convert();
    } finally {
      this.dynamicScopes.pop();
    }
  }

  /** A `$dynamicRef` resolves to the outermost binding of its anchor; with none, it admits anything. */
  private dynamicReference(reference: string, depth: number, at: string): JsonObject {
    const name = reference.slice(reference.indexOf("#") + 1);
    const bound = this.dynamicScopes.find((scope) => scope.has(name))?.get(name);
    if (!isJsonObject(bound)) return {};
    const { $dynamicAnchor: _, ...schema } = bound;
    return this.convert(schema, depth + 1, `${at}($dynamicRef ${name})`);
  }

  /** True when a referenced schema (or one it references) uses `$dynamicRef`, so its meaning depends on the caller. */
  private dependsOnScope(ref: string): boolean {
    let known = this.usesDynamicRef.get(ref);
    if (known === undefined) {
      known = false;
      this.usesDynamicRef.set(ref, false);
      const stack: JsonValue[] = [this.resolve(ref)];
      while (stack.length > 0 && !known) {
        const value = stack.pop() as JsonValue;
        if (Array.isArray(value)) stack.push(...value);
        else if (isJsonObject(value)) {
          if (typeof value.$dynamicRef === "string") known = true;
          else if (typeof value.$ref === "string" && value.$ref !== ref && this.dependsOnScope(value.$ref)) known = true;
          else
            for (const [key, item] of Object.entries(value))
              if (key !== "$ref" && typeof item === "object" && item !== null) stack.push(item);
        }
      }
      this.usesDynamicRef.set(ref, known);
    }
    return known;
  }

  /** The `$defs` object for the schemas converted so far, sorted by key. */
  defsObject(): JsonObject | undefined {
    if (this.defs.size === 0) return undefined;
    const keys = [...this.defs.keys()].sort(codePointCompare);
    return Object.fromEntries(keys.map((key) => [key, this.defs.get(key) as JsonObject]));
  }

  private resolve(ref: string): JsonValue {
    const target = resolvePointer(this.document, ref);
    if (target === undefined) throw new UserError(`${this.where}: unresolvable $ref "${ref}"`);
    return target;
  }

  private convert(node: JsonValue | undefined, depth: number, at: string): JsonObject {
    if (depth > MAX_DEPTH) throw new UserError(`${this.where}: schema nested deeper than ${MAX_DEPTH} levels at ${at || "root"}`);
    if (node === undefined || node === true) return {};
    if (node === false) return { not: {} };
    if (!isJsonObject(node)) throw new UserError(`${this.where}: schema at ${at || "root"} is not an object`);
    if (typeof node.$dynamicRef === "string") return this.dynamicReference(node.$dynamicRef, depth, at);
    return this.inScope(node, () => this.convertObject(node, depth, at));
  }

  private convertObject(node: JsonObject, depth: number, at: string): JsonObject {
    const ref = refOf(node);
    if (ref !== undefined) {
      const reference = this.referenceTo(ref, depth);
      const { $ref: _, ...siblings } = node;
      if (Object.keys(siblings).length === 0) return reference;
      // A `$ref` beside other keywords means different things in draft-07 and 2020-12; `allOf` means one thing.
      const rest = this.convert(siblings, depth + 1, at);
      return { ...rest, allOf: [reference, ...(Array.isArray(rest.allOf) ? rest.allOf : [])] };
    }

    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (PORTABLE_KEYWORDS.has(key)) out[key] = value;
    }
    if (out.pattern !== undefined && typeof out.pattern !== "string") {
      this.warnings.push(`${this.where}: dropped a pattern that is not a string at ${at || "root"}`);
      delete out.pattern;
    }
    if (out.format !== undefined) moveFormatToHint(out);
    if (Array.isArray(out.enum)) out.enum = uniqueValues(out.enum);
    if (typeof out.pattern === "string" && !isValidPattern(out.pattern)) {
      this.warnings.push(
        `${this.where}: dropped pattern ${JSON.stringify(out.pattern)} at ${at || "root"} (not a valid ECMAScript regular expression)`,
      );
      delete out.pattern;
    }
    if (typeof out.pattern === "string" && !isLinearPattern(out.pattern)) {
      this.warnings.push(
        `${this.where}: pattern ${JSON.stringify(out.pattern.slice(0, 80))} at ${at || "root"} uses look-around or back-references, which the server's linear-time matcher cannot run: it is shown to clients but not enforced`,
      );
    }
    if (node.example !== undefined && out.examples === undefined) out.examples = [node.example];
    // An example given as a reference object is OpenAPI misuse, not data: drop it rather than publish a dangling $ref.
    if (Array.isArray(out.examples)) out.examples = out.examples.filter((example) => refOf(example) === undefined);
    if (!Array.isArray(out.examples) || out.examples.length === 0) delete out.examples;
    const tooDeep = fitValueDepth(out, (message) => this.warnings.push(`${this.where}: ${message} at ${at || "root"}`));
    if (tooDeep !== undefined) throw new UserError(`${this.where}: ${tooDeep} at ${at || "root"}`);
    copyType(node, out);
    if (Array.isArray(out.enum)) this.fitEnum(out, node.nullable === true, at);
    copyExclusiveBounds(node, out);

    const properties = isJsonObject(node.properties) ? node.properties : undefined;
    if (properties) {
      const converted: JsonObject = {};
      const dropped = new Set<string>();
      for (const [name, child] of Object.entries(properties)) {
        if (name === "__proto__") {
          // MCP clients (the SDK's zod schemas among them) reject any schema object with this key.
          this.warnings.push(
            `${this.where}: dropped the property "__proto__" at ${at || "root"} (MCP clients reject schemas that contain it)`,
          );
          dropped.add(name);
          continue;
        }
        const resolved = derefObject(this.document, child);
        if (this.isHiddenHere(resolved)) {
          dropped.add(name);
          continue;
        }
        setOwn(converted, name, this.convert(child, depth + 1, `${at}.${name}`));
      }
      out.properties = converted;
      if (Array.isArray(node.required)) {
        const required = node.required.filter((name): name is string => typeof name === "string" && !dropped.has(name));
        if (required.length > 0) out.required = [...new Set(required)];
      }
    } else if (Array.isArray(node.required) && node.required.length > 0) {
      out.required = node.required.filter((name) => typeof name === "string");
    }
    if (node.additionalProperties !== undefined) {
      out.additionalProperties =
        typeof node.additionalProperties === "boolean"
          ? node.additionalProperties
          : this.convert(node.additionalProperties, depth + 1, `${at}{}`);
    }
    if (node.items !== undefined && !Array.isArray(node.items)) out.items = this.convert(node.items, depth + 1, `${at}[]`);
    for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
      const list = node[keyword];
      if (Array.isArray(list) && list.length > 0) {
        out[keyword] = list.map((child, index) => this.convert(child, depth + 1, `${at}.${keyword}[${index}]`));
      }
    }
    if (node.not !== undefined) out.not = this.convert(node.not, depth + 1, `${at}.not`);
    const discriminator = isJsonObject(node.discriminator) ? node.discriminator.propertyName : undefined;
    if (typeof discriminator === "string") {
      // OpenAPI's discriminator is not JSON Schema; its meaning survives as a description.
      const note = `The property "${discriminator}" says which variant this is.`;
      out.description = typeof out.description === "string" ? `${out.description}\n${note}` : note;
    }
    declareObjectKeywords(out);
    if (node.nullable === true) return makeNullable(out);
    return out;
  }

  /** `readOnly` properties are not sent; `writeOnly` ones are never returned. */
  private isHiddenHere(schema: JsonObject | undefined): boolean {
    if (!schema) return false;
    return this.direction === "request" ? schema.readOnly === true : schema.writeOnly === true;
  }

  private referenceTo(ref: string, depth: number): JsonObject {
    // A generic schema (one using $dynamicRef) means something different under each binding: inline it there.
    if (this.dynamicScopes.length > 0 && this.dependsOnScope(ref)) return this.convert(this.resolve(ref), depth + 1, `(${ref})`);
    let key = this.keyByRef.get(ref);
    if (key === undefined) {
      key = this.newKey(ref);
      this.keyByRef.set(ref, key);
      this.defs.set(key, {});
      // Each referenced schema is converted once, as its own $defs entry: its nesting is counted afresh, and only
      // the chain of references in progress is bounded (so the call stack is).
      if (this.refChain >= MAX_REFERENCE_CHAIN)
        throw new UserError(`${this.where}: more than ${MAX_REFERENCE_CHAIN} schemas reference each other in one chain at ${ref}`);
      this.refChain++;
      try {
        this.defs.set(key, this.convert(this.resolve(ref), 0, `(${ref})`));
      } finally {
        this.refChain--;
      }
    }
    return { $ref: `#/$defs/${key}` };
  }

  /** Drops enum values the declared type rejects (and an enum left empty), saying which. */
  private fitEnum(out: JsonObject, nullable: boolean, at: string): void {
    const values = out.enum as JsonValue[];
    const admitted = enumValuesOfType(values, out.type, nullable);
    if (admitted.length === values.length) return;
    const dropped = values.filter((value) => !admitted.includes(value));
    this.warnings.push(
      `${this.where}: dropped enum value(s) ${JSON.stringify(dropped).slice(0, 120)} at ${at || "root"}: not of type ${JSON.stringify(out.type)}`,
    );
    if (admitted.length === 0) delete out.enum;
    else out.enum = admitted;
  }

  /** A `$defs` key that needs no escaping in a JSON pointer or URI fragment. */
  private newKey(ref: string): string {
    const cleaned = refName(ref).replace(/[^A-Za-z0-9._-]/g, "_");
    const base = cleaned === "" || cleaned === "__proto__" ? "Schema" : cleaned;
    let key = base;
    for (let n = 2; this.defs.has(key); n++) key = `${base}_${n}`;
    return key;
  }
}

function copyType(node: JsonObject, out: JsonObject): void {
  const type = node.type;
  if (typeof type === "string") out.type = type;
  else if (Array.isArray(type) && type.every((t) => typeof t === "string")) out.type = [...new Set(type)];
}

/** OpenAPI 3.0 writes `exclusiveMinimum: true` beside `minimum`; both JSON Schema drafts want a number. */
function copyExclusiveBounds(node: JsonObject, out: JsonObject): void {
  for (const [exclusive, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    const value = node[exclusive];
    if (typeof value === "number") out[exclusive] = value;
    else if (value === true && typeof node[bound] === "number") {
      out[exclusive] = node[bound];
      delete out[bound];
    }
  }
}

/** OpenAPI 3.0 `nullable: true` becomes a type array (or an `anyOf` with null when there is no type). */
function makeNullable(schema: JsonObject): JsonObject {
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.type)) return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}

/** Enum values without repeats (both JSON Schema drafts require unique items). */
function uniqueValues(values: JsonValue[]): JsonValue[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isValidPattern(pattern: string): boolean {
  try {
    new RegExp(pattern, "u");
    return true;
  } catch {
    return false;
  }
}

/** Orders strings by UTF-16 code unit, the same on every machine and locale. */
export function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
