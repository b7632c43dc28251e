type Schema = { [key: string]: unknown };

/**
 * A small valid instance of a tool input schema: required properties (and a few optional scalars), enums' first
 * values, formats honoured. Used to call generated tools against Prism, which checks the requests.
 */
export function sampleArguments(inputSchema: Schema): Record<string, unknown> {
  const defs = (inputSchema.$defs ?? {}) as Record<string, Schema>;
  return sample(inputSchema, defs, 0, true) as Record<string, unknown>;
}

function sample(schema: Schema, defs: Record<string, Schema>, depth: number, top = false): unknown {
  if (typeof schema.$ref === "string") return sample(defs[schema.$ref.replace("#/$defs/", "")] ?? {}, defs, depth + 1);
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((part) => sample(part as Schema, defs, depth + 1)), sampleOwn(schema, defs, depth, top));
  for (const keyword of ["oneOf", "anyOf"]) {
    const list = schema[keyword] as Schema[] | undefined;
    if (Array.isArray(list) && list.length > 0 && schema.properties === undefined) {
      const first = list.find((option) => option.type !== "null") ?? list[0];
      return sample({ ...(first as Schema) }, defs, depth + 1);
    }
  }
  return sampleOwn(schema, defs, depth, top);
}

function sampleOwn(schema: Schema, defs: Record<string, Schema>, depth: number, top: boolean): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0 && typeof schema.examples[0] !== "object") return schema.examples[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (type === "object" || properties) {
    const out: Record<string, unknown> = {};
    const required = new Set((schema.required as string[] | undefined) ?? []);
    if (Array.isArray(schema.oneOf) && (schema.oneOf as Schema[])[0]?.required)
      for (const name of ((schema.oneOf as Schema[])[0]?.required ?? []) as string[]) required.add(name);
    for (const [name, property] of Object.entries(properties ?? {})) {
      if (required.has(name) || (top && depth === 0 && name === "body")) out[name] = sample(property, defs, depth + 1);
    }
    if (name(schema) === "file")
      return { base64: Buffer.from("sample").toString("base64"), filename: "sample.png", contentType: "image/png" };
    if (schema.minProperties !== undefined && Object.keys(out).length < Number(schema.minProperties)) {
      const [first] = Object.entries(properties ?? {});
      if (first) out[first[0]] = sample(first[1], defs, depth + 1);
    }
    return out;
  }
  if (type === "array") return depth > 6 ? [] : [sample((schema.items ?? {}) as Schema, defs, depth + 1)];
  if (type === "integer") return Math.max(Number(schema.minimum ?? 1), 1);
  if (type === "number") return Math.max(Number(schema.minimum ?? 1.5), 1.5);
  if (type === "boolean") return true;
  if (type === "string") return sampleString(schema);
  return "sample";
}

/** The file-argument schema is recognised by its base64/path pair. */
function name(schema: Schema): string | undefined {
  const properties = schema.properties as Record<string, unknown> | undefined;
  return properties?.base64 && properties?.path ? "file" : undefined;
}

function sampleString(schema: Schema): string {
  switch (schema.format) {
    case "date-time":
      return "2026-01-02T03:04:05Z";
    case "date":
      return "2026-01-02";
    case "email":
      return "someone@example.com";
    case "uri":
    case "url":
      return "https://example.com/x";
    case "uuid":
      return "9b2c4d6e-1f3a-4b5c-8d7e-0a1b2c3d4e5f";
    default: {
      const min = Number(schema.minLength ?? 0);
      return "sample".padEnd(Math.max(min, 6), "x").slice(0, Number(schema.maxLength ?? 64));
    }
  }
}
