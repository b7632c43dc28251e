import { setOwn } from "oapi-mcp-gen-runtime";
import type { JsonObject } from "../../openapi/document/index.js";
import { type Schema, type SchemaCatalog, type SchemaObject, withoutKeyword } from "../../openapi/model/index.js";
import { refName } from "../../openapi/references/index.js";
import { codePointCompare } from "../base/code-point-order.js";
import { UserError } from "../base/errors.js";
import { copyKeywords } from "./schema-copy.js";
import { declareObjectKeywords } from "./schema-keywords.js";

/** Which side of the HTTP exchange a schema describes: `readOnly` leaves requests, `writeOnly` leaves responses. */
export type SchemaDirection = "request" | "response";

/** A tool's two JSON Schemas, and the names that place it in messages (a tool model is one). */
export interface ToolSchemas {
  name: string;
  operationId?: string | undefined;
  inputSchema: JsonObject;
  outputSchema: JsonObject;
}

const MAX_DEPTH = 64;
/** Schemas referencing each other in one chain, each converted inside the last: 600 overflowed Node's call stack. */
const MAX_REFERENCE_CHAIN = 256;
/**
 * Levels of schema in conversion at once, through every reference in progress: a bound inside Node's call stack, which
 * ran out near 1,000 levels (a chain of 250 references nesting 10 deep), sometimes as a TypeError from inside a builtin
 * rather than a RangeError. A chain of 250 references of one level each (500 levels) converts.
 */
const MAX_NESTING = 700;
/** Why a tool's schemas cannot be converted when they nest too deep through references. */
const TOO_DEEP = (where: string) =>
  `${where}: schemas nest too deeply, through references, to convert (over ${MAX_NESTING} levels at once)`;

/** A referenced schema converted once: its `$defs` key, its JSON Schema (frozen), the references it holds, its warnings. */
interface ConvertedDefinition {
  key: string;
  schema: JsonObject;
  refs: readonly string[];
  /** Its own warnings, each without the leading `<where>: ` of the tool it was converted for. */
  warnings: readonly string[];
}

/** A definition being converted: the references and warnings it has met so far. */
interface OpenDefinition {
  refs: string[];
  warnings: string[];
}

/** What a read-only property is in a request's schema: accepted whatever its value, and dropped before the call. */
export const READ_ONLY_PLACEHOLDER: JsonObject = { readOnly: true, description: "Read-only: accepted and ignored (never sent)." };

/**
 * Referenced schemas of one document converted for one direction, shared by every tool: a tool takes a definition
 * (and all it reaches) whole when their `$defs` keys agree with its own, else converts it again. Converting GitHub's
 * simple user once instead of for each of 700 tools is most of the work saved.
 */
export class DefinitionMemo {
  readonly converted = new Map<string, ConvertedDefinition>();
}

/**
 * Converts OpenAPI schemas into self-contained JSON Schemas that draft-07 and 2020-12 validators read alike.
 * Every referenced component becomes one entry of `defs`, so cycles end at a `$ref`.
 */
export class SchemaConverter {
  /** Converted named schemas, by `$defs` key. */
  readonly defs = new Map<string, JsonObject>();
  readonly warnings: string[] = [];
  /** Properties the last `convertRoot` left out of its object (hidden in this direction, or unsafe names). */
  rootDropped: string[] = [];
  private readonly keyByRef = new Map<string, string>();
  /** `$dynamicAnchor` bindings of the schemas being converted, outermost first. @see https://json-schema.org/draft/2020-12/json-schema-core#section-8.2.3.2 */
  private readonly dynamicScopes: Map<string, SchemaObject>[] = [];
  private refChain = 0;
  /** Levels of schema in conversion now, across the references in progress (bounded by MAX_NESTING). */
  private nesting = 0;
  private dropped: string[] | undefined;
  /** The definitions being converted, innermost last. */
  private readonly open: OpenDefinition[] = [];

  constructor(
    private readonly schemas: SchemaCatalog,
    private readonly direction: SchemaDirection,
    private readonly where: string,
    private readonly memo?: DefinitionMemo,
  ) {}

  /** Converts a schema with its outermost `$ref` inlined, recording the properties it drops there. */
  convertRoot(node: Schema | undefined): JsonObject {
    try {
      return this.convertRootNode(node);
    } catch (error) {
      // Nesting within each referenced schema adds to the chain's: the stack, not a count, is the last bound.
      if (error instanceof RangeError && /call stack/i.test(error.message)) throw new UserError(TOO_DEEP(this.where));
      throw error;
    }
  }

  private convertRootNode(node: Schema | undefined): JsonObject {
    this.rootDropped = [];
    this.dropped = this.rootDropped;
    if (!isObject(node) || node.ref === undefined) return this.convert(node, 0, "");
    const ref = node.ref;
    return this.inScope(node, () => {
      const converted = this.convert(this.resolve(ref), 0, `(${ref})`);
      for (const keyword of ["title", "description"] as const) {
        const value = node.keywords[keyword];
        if (typeof value === "string") converted[keyword] = value;
      }
      return converted;
    });
  }

  /** The `$defs` object for the schemas converted so far, sorted by key. */
  defsObject(): JsonObject | undefined {
    if (this.defs.size === 0) return undefined;
    return Object.fromEntries([...this.defs].sort(([a], [b]) => codePointCompare(a, b)));
  }

  /** Runs `convert` with the node's `$dynamicAnchor` definitions bound (an outer binding of the same name wins). */
  private inScope<T>(node: SchemaObject, convert: () => T): T {
    const bindings = new Map<string, SchemaObject>();
    for (const def of node.defs?.values() ?? []) if (isObject(def) && def.dynamicAnchor !== undefined) bindings.set(def.dynamicAnchor, def);
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
    if (bound === undefined) return {};
    return this.convert(withoutKeyword(bound, "$dynamicAnchor"), depth + 1, `${at}($dynamicRef ${name})`);
  }

  private resolve(ref: string): Schema {
    const target = this.schemas.target(ref);
    if (target === undefined) throw new UserError(`${this.where}: unresolvable $ref "${ref}"`);
    return target;
  }

  private convert(node: Schema | undefined, depth: number, at: string): JsonObject {
    if (depth > MAX_DEPTH) throw new UserError(`${this.where}: schema nested deeper than ${MAX_DEPTH} levels at ${at || "root"}`);
    if (this.nesting >= MAX_NESTING) throw new UserError(TOO_DEEP(this.where));
    this.nesting++;
    try {
      return this.convertNode(node, depth, at);
    } finally {
      this.nesting--;
    }
  }

  private convertNode(node: Schema | undefined, depth: number, at: string): JsonObject {
    if (node === undefined || node === true) return {};
    if (node === false) return { not: {} };
    if (node === null) throw new UserError(`${this.where}: schema at ${at || "root"} is not an object`);
    if (node.dynamicRef !== undefined) return this.dynamicReference(node.dynamicRef, depth, at);
    return this.inScope(node, () => this.convertObject(node, depth, at));
  }

  private convertObject(node: SchemaObject, depth: number, at: string): JsonObject {
    const dropped = this.dropped;
    this.dropped = undefined;
    if (node.ref !== undefined) {
      const reference = this.referenceTo(node.ref, depth);
      if (node.refOnly) return reference;
      // A `$ref` beside other keywords means different things in draft-07 and 2020-12; `allOf` means one thing.
      const rest = this.convert(withoutKeyword(node, "$ref"), depth + 1, at);
      return { ...rest, allOf: [reference, ...(Array.isArray(rest.allOf) ? rest.allOf : [])] };
    }
    const out = copyKeywords(node, { where: this.where, at, warn: (message) => this.warn(message) });
    if (node.properties) {
      const converted: JsonObject = {};
      const hidden = new Set<string>();
      for (const [name, child] of node.properties) {
        if (name === "__proto__") {
          // MCP clients (the SDK's zod schemas among them) reject any schema object with this key.
          this.warn(`${this.where}: dropped the property "__proto__" at ${at || "root"} (MCP clients reject schemas that contain it)`);
          hidden.add(name);
        } else if (this.isHiddenHere(this.schemas.deref(child))) {
          // A read-only field echoed back in a request (a record read, then sent back) is accepted and dropped at any
          // depth, never sent: it stands here as such, for the runtime to drop and no caller to be refused for it.
          if (this.direction === "request") setOwn(converted, name, { ...READ_ONLY_PLACEHOLDER });
          hidden.add(name);
        } else setOwn(converted, name, this.convert(child, depth + 1, `${at}.${name}`));
      }
      if (dropped) for (const name of hidden) if (!Object.hasOwn(converted, name)) dropped.push(name);
      out.properties = converted;
      const required = (node.required ?? []).filter((name) => !hidden.has(name));
      if (required.length > 0) out.required = [...new Set(required)];
    } else if (node.required && node.required.length > 0) {
      out.required = [...node.required];
    }
    const { additionalProperties } = node;
    if (additionalProperties !== undefined) {
      out.additionalProperties =
        typeof additionalProperties === "boolean" ? additionalProperties : this.convert(additionalProperties, depth + 1, `${at}{}`);
    }
    if (node.items !== undefined) out.items = this.convert(node.items, depth + 1, `${at}[]`);
    for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
      const list = node[keyword];
      if (list && list.length > 0) out[keyword] = list.map((child, index) => this.convert(child, depth + 1, `${at}.${keyword}[${index}]`));
    }
    if (node.not !== undefined) out.not = this.convert(node.not, depth + 1, `${at}.not`);
    const discriminator = node.discriminator?.propertyName;
    if (discriminator !== undefined) {
      // OpenAPI's discriminator is not JSON Schema; its meaning survives as a description.
      const note = `The property "${discriminator}" says which variant this is.`;
      out.description = typeof out.description === "string" ? `${out.description}\n${note}` : note;
    }
    declareObjectKeywords(out);
    return node.nullable ? makeNullable(out) : out;
  }

  /** `readOnly` properties are not sent; `writeOnly` ones are never returned. */
  private isHiddenHere(schema: SchemaObject | undefined): boolean {
    if (!schema) return false;
    return this.direction === "request" ? schema.readOnly : schema.writeOnly;
  }

  /** Records a warning for this tool, and for the definition being converted. */
  private warn(message: string): void {
    this.warnings.push(message);
    this.open.at(-1)?.warnings.push(message.startsWith(`${this.where}: `) ? message.slice(this.where.length + 2) : message);
  }

  private referenceTo(ref: string, depth: number): JsonObject {
    // A generic schema (one using $dynamicRef) means something different under each binding: inline it there.
    const generic = this.dynamicScopes.length > 0 && this.schemas.usesDynamicRef(ref);
    if (generic) return this.convert(this.resolve(ref), depth + 1, `(${ref})`);
    this.open.at(-1)?.refs.push(ref);
    let key = this.keyByRef.get(ref);
    if (key === undefined && !this.takeConverted(ref)) {
      key = this.newKey(ref);
      this.keyByRef.set(ref, key);
      this.defs.set(key, {});
      // Each referenced schema is converted once, as its own $defs entry: its nesting is counted afresh, and only
      // the chain of references in progress is bounded (so the call stack is).
      if (this.refChain >= MAX_REFERENCE_CHAIN)
        throw new UserError(`${this.where}: more than ${MAX_REFERENCE_CHAIN} schemas reference each other in one chain at ${ref}`);
      this.refChain++;
      const open: OpenDefinition = { refs: [], warnings: [] };
      this.open.push(open);
      try {
        const schema = this.convert(this.resolve(ref), 0, `(${ref})`);
        this.defs.set(key, schema);
        this.remember(ref, key, schema, open);
      } finally {
        this.open.pop();
        this.refChain--;
      }
    }
    return { $ref: `#/$defs/${this.keyByRef.get(ref)}` };
  }

  /** Shares a definition just converted, when it and the references it holds have the keys any tool would give them. */
  private remember(ref: string, key: string, schema: JsonObject, open: OpenDefinition): void {
    if (!this.memo || this.schemas.usesDynamicRef(ref) || key !== baseKey(ref)) return;
    const refs = [...new Set(open.refs)];
    if (refs.some((inner) => this.keyByRef.get(inner) !== baseKey(inner))) return;
    this.memo.converted.set(ref, { key, schema: deepFreeze(schema), refs, warnings: open.warnings });
  }

  /**
   * Takes a shared definition and all it reaches into this tool's `$defs`; false (nothing taken) when one is missing
   * or its key is held here by another schema.
   */
  private takeConverted(ref: string): boolean {
    if (!this.memo || this.schemas.usesDynamicRef(ref)) return false;
    const taken = new Map<string, ConvertedDefinition>();
    const keys = new Set<string>();
    const pending = [ref];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (taken.has(next)) continue;
      // A shared definition names what it references by base key: one held here already must be held under it.
      const held = this.keyByRef.get(next);
      if (held !== undefined) {
        if (held !== baseKey(next)) return false;
        continue;
      }
      const definition = this.memo.converted.get(next);
      if (!definition || this.defs.has(definition.key) || keys.has(definition.key)) return false;
      taken.set(next, definition);
      keys.add(definition.key);
      for (const inner of definition.refs) pending.push(inner);
    }
    for (const [inner, { key, schema, warnings }] of taken) {
      this.keyByRef.set(inner, key);
      this.defs.set(key, schema);
      // Its warnings are this tool's; the definition being converted around it (if any) already has them in its own.
      for (const warning of warnings) this.warnings.push(`${this.where}: ${warning}`);
    }
    return true;
  }

  /** A `$defs` key that needs no escaping in a JSON pointer or URI fragment. */
  private newKey(ref: string): string {
    const base = baseKey(ref);
    let key = base;
    for (let n = 2; this.defs.has(key); n++) key = `${base}_${n}`;
    return key;
  }
}

/** The `$defs` key of a reference when no other schema of the tool holds it: its name, made safe. */
function baseKey(ref: string): string {
  const cleaned = refName(ref).replace(/[^A-Za-z0-9._-]/g, "_");
  return cleaned === "" || cleaned === "__proto__" ? "Schema" : cleaned;
}

/** Freezes a converted schema all the way down: tools share it, so nothing may change it. */
function deepFreeze(value: JsonObject): JsonObject {
  for (const inner of Object.values(value))
    if (typeof inner === "object" && inner !== null && !Object.isFrozen(inner)) deepFreeze(inner as JsonObject);
  return Object.freeze(value);
}

function isObject(schema: Schema | undefined): schema is SchemaObject {
  return typeof schema === "object" && schema !== null;
}

/** OpenAPI 3.0 `nullable: true` becomes a type array (or an `anyOf` with null when there is no type). */
function makeNullable(schema: JsonObject): JsonObject {
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (typeof schema.type === "string") return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.type)) return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}
