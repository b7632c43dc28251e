import { isJsonObject, type JsonObject, type JsonValue } from "../openapi/types.js";

/** Text safe in one Markdown table cell. */
function cell(value: unknown): string {
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
  return text.replace(/\r?\n/g, " ").replace(/\|/g, "\\|").trim();
}

/**
 * A document's free text (summary, description) as a quoted block: every line starts with `> ` and a block marker at
 * its start is escaped, so the text cannot open a heading, a fence or a fake section of this export.
 */
function documentText(value: unknown): string {
  return String(value)
    .split(/\r?\n|[\u2028\u2029]/)
    .map((line) => `> ${line.replace(/^(\s*)([#>`~=|*+-]|\d+[.)])/, "$1\\$2")}`)
    .join("\n");
}

function typeOf(schema: JsonValue | undefined): string {
  if (!isJsonObject(schema)) return "";
  if (typeof schema.$ref === "string") return schema.$ref.replace(/^#\/components\/schemas\//, "");
  const type = Array.isArray(schema.type) ? schema.type.join(" \\| ") : typeof schema.type === "string" ? schema.type : "";
  if (type === "array" && isJsonObject(schema.items)) return `${typeOf(schema.items)}[]`;
  return typeof schema.format === "string" ? `${type} (${schema.format})` : type;
}

function jsonBlock(value: JsonValue): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2).replace(/```/g, "`\u200b``")}\n\`\`\``;
}

/** One operation view as a Markdown section. */
export function operationMarkdown(method: string, path: string, view: JsonObject): string {
  const lines = [`## ${method.toUpperCase()} ${cell(path)}`, ""];
  if (view.operationId) lines.push(`**operationId:** \`${cell(view.operationId)}\``, "");
  if (view.deprecated === true) lines.push("**Deprecated.**", "");
  if (view.summary) lines.push(documentText(view.summary), "");
  if (view.description && view.description !== view.summary) lines.push(documentText(view.description), "");
  const parameters = Array.isArray(view.parameters) ? view.parameters.filter(isJsonObject) : [];
  if (parameters.length > 0) {
    lines.push("### Parameters", "", "| name | in | required | type | description |", "|---|---|---|---|---|");
    for (const p of parameters)
      lines.push(
        `| ${cell(p.name)} | ${cell(p.in)} | ${p.required === true ? "yes" : "no"} | ${cell(typeOf(p.schema))} | ${cell(p.description)} |`,
      );
    lines.push("");
  }
  if (isJsonObject(view.requestBody)) lines.push("### Request body", "", jsonBlock(view.requestBody), "");
  if (isJsonObject(view.responses)) {
    lines.push("### Responses", "");
    for (const [status, response] of Object.entries(view.responses)) {
      const description = isJsonObject(response) ? response.description : undefined;
      const content = isJsonObject(response) && isJsonObject(response.content) ? response.content : {};
      const schemas = Object.entries(content).map(
        ([type, media]) => `${type}: ${typeOf(isJsonObject(media) ? media.schema : undefined) || "—"}`,
      );
      lines.push(`- **${cell(status)}** ${cell(description)}${schemas.length > 0 ? ` (${schemas.map(cell).join(", ")})` : ""}`);
    }
    lines.push("");
  }
  lines.push(
    "### Security",
    "",
    view.public === true ? "Public (no authentication required)." : `\`${JSON.stringify(view.security)}\``,
    "",
  );
  return lines.join("\n");
}

/** A component schema as Markdown: a property table and the schema itself. */
export function schemaMarkdown(name: string, schema: JsonObject): string {
  const lines = [`## Schema ${cell(name)}`, ""];
  if (typeof schema.description === "string") lines.push(documentText(schema.description), "");
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  if (isJsonObject(schema.properties)) {
    lines.push("| property | type | required | description |", "|---|---|---|---|");
    for (const [property, value] of Object.entries(schema.properties)) {
      const description = isJsonObject(value) ? value.description : undefined;
      lines.push(`| ${cell(property)} | ${cell(typeOf(value))} | ${required.has(property) ? "yes" : "no"} | ${cell(description)} |`);
    }
    lines.push("");
  }
  const { schema_name: _, referenced_schemas: refs, ...body } = schema;
  lines.push(jsonBlock(body));
  if (Array.isArray(refs) && refs.length > 0) lines.push("", `Referenced schemas: ${refs.map((ref) => `\`${cell(ref)}\``).join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** Search or listing results as a Markdown table. */
export function endpointsMarkdown(title: string, results: readonly JsonObject[], total: number): string {
  const lines = [
    `## ${cell(title)}`,
    "",
    `${results.length} of ${total} shown.`,
    "",
    "| method | path | operationId | summary |",
    "|---|---|---|---|",
  ];
  for (const result of results) {
    lines.push(
      `| ${cell(String(result.method).toUpperCase())} | ${cell(result.path)} | ${cell(result.operationId)} | ${cell(result.summary)} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}
