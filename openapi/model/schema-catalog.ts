import { DocumentParseError, isJsonObject, type JsonObject, type JsonValue } from "../document/index.js";
import { collectRefs, refName, resolvePointer } from "../references/index.js";
import { readSchema, type Schema, type SchemaObject } from "./schema.js";

const SCHEMA_PREFIX = "#/components/schemas/";

/** The named schemas of a document and every `$ref` between them, each resolved once. */
export class SchemaCatalog {
  /** Named component schemas, in document order. */
  readonly named: ReadonlyMap<string, Schema>;
  private readonly targets = new Map<string, Schema | undefined>();
  private readonly edges = new Map<string, string[]>();
  private readonly dynamic = new Map<string, boolean>();

  constructor(private readonly document: JsonObject) {
    const components = isJsonObject(document.components) ? document.components : {};
    const schemas = isJsonObject(components.schemas) ? components.schemas : {};
    this.named = new NamedSchemas(schemas);
  }

  /** The schema a local reference points at; undefined when it points nowhere. */
  target(ref: string): Schema | undefined {
    if (!this.targets.has(ref)) {
      const node = resolvePointer(this.document, ref);
      this.targets.set(ref, node === undefined ? undefined : readSchema(node));
    }
    return this.targets.get(ref);
  }

  /** Follows a chain of references to the schema object it ends at; throws on a dangling or circular chain. */
  deref(schema: Schema | undefined): SchemaObject | undefined {
    const seen = new Set<string>();
    let current = schema;
    while (current !== undefined && current !== null && typeof current === "object" && current.ref !== undefined) {
      const ref: string = current.ref;
      if (seen.has(ref)) throw new DocumentParseError(`circular $ref chain at ${ref}`);
      seen.add(ref);
      current = this.target(ref);
      if (current === undefined) throw new DocumentParseError(`unresolvable $ref ${ref}`);
    }
    return typeof current === "object" && current !== null ? current : undefined;
  }

  /** The references directly inside the target of `ref` (collected once per target). */
  referencesFrom(ref: string): readonly string[] {
    let found = this.edges.get(ref);
    if (found === undefined) {
      const refs = new Set<string>();
      const node = resolvePointer(this.document, ref);
      if (node !== undefined) collectRefs(node, (inner) => refs.add(inner));
      found = [...refs];
      this.edges.set(ref, found);
    }
    return found;
  }

  /** Names of the component schemas a value reaches, following references transitively (each visited once). */
  reachableNames(value: JsonValue): string[] {
    const seen = new Set<string>();
    const queue: string[] = [];
    collectRefs(value, (ref) => queue.push(ref));
    for (let ref = queue.pop(); ref !== undefined; ref = queue.pop()) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      for (const inner of this.referencesFrom(ref)) queue.push(inner);
    }
    return [...seen]
      .filter((ref) => ref.startsWith(SCHEMA_PREFIX))
      .map(refName)
      .sort();
  }

  /** True when a referenced schema (or one it references) uses `$dynamicRef`, so its meaning depends on the caller. */
  usesDynamicRef(ref: string): boolean {
    let known = this.dynamic.get(ref);
    if (known !== undefined) return known;
    this.dynamic.set(ref, false);
    known = false;
    const stack: JsonValue[] = [];
    const start = resolvePointer(this.document, ref);
    if (start !== undefined) stack.push(start);
    for (let value = stack.pop(); value !== undefined && !known; value = stack.pop()) {
      if (Array.isArray(value)) for (const item of value) stack.push(item);
      else if (isJsonObject(value)) {
        if (typeof value.$dynamicRef === "string") known = true;
        else if (typeof value.$ref === "string" && value.$ref !== ref && this.usesDynamicRef(value.$ref)) known = true;
        else
          for (const [key, item] of Object.entries(value))
            if (key !== "$ref" && typeof item === "object" && item !== null) stack.push(item);
      }
    }
    this.dynamic.set(ref, known);
    return known;
  }

  /** True when every value the schema admits is a JSON object. */
  admitsOnlyObjects(node: Schema | undefined): boolean {
    const schema = this.deref(node);
    if (!schema) return false;
    if (schema.type === "object") return !schema.nullable;
    if (schema.type !== undefined) return false;
    for (const branches of [schema.oneOf, schema.anyOf]) {
      if (branches) return branches.every((branch) => this.admitsOnlyObjects(branch));
    }
    if (schema.allOf) return schema.allOf.some((branch) => this.admitsOnlyObjects(branch));
    return schema.properties !== undefined;
  }
}

/**
 * The component schemas by name, each read when first asked for: a server that holds a document reads only the
 * schemas its callers look at (GitHub's document has 900), while iterating reads them all, in document order.
 */
class NamedSchemas implements ReadonlyMap<string, Schema> {
  constructor(private readonly written: JsonObject) {}

  get size(): number {
    return Object.keys(this.written).length;
  }

  get(name: string): Schema | undefined {
    return Object.hasOwn(this.written, name) ? readSchema(this.written[name]) : undefined;
  }

  has(name: string): boolean {
    return Object.hasOwn(this.written, name);
  }

  keys(): MapIterator<string> {
    return Object.keys(this.written)[Symbol.iterator]();
  }

  *values(): MapIterator<Schema> {
    for (const value of Object.values(this.written)) yield readSchema(value);
  }

  *entries(): MapIterator<[string, Schema]> {
    for (const [name, value] of Object.entries(this.written)) yield [name, readSchema(value)];
  }

  [Symbol.iterator](): MapIterator<[string, Schema]> {
    return this.entries();
  }

  forEach(callback: (value: Schema, key: string, map: ReadonlyMap<string, Schema>) => void): void {
    for (const [name, schema] of this.entries()) callback(schema, name, this);
  }
}
