import type { OperationModel } from "../openapi/model.js";
import { refName } from "../openapi/refs.js";
import type { Schema } from "../openapi/schema.js";
import type { JsonObject, JsonValue } from "../openapi/types.js";

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

/** A short type label: a referenced schema's name, the type (with format), or `Item[]`. */
function typeOf(schema: Schema | undefined): string {
  if (typeof schema !== "object" || schema === null) return "";
  if (schema.ref !== undefined) return schema.ref.startsWith("#/components/schemas/") ? refName(schema.ref) : schema.ref;
  const type = Array.isArray(schema.type) ? schema.type.join(" \\| ") : (schema.type ?? "");
  if (type === "array" && schema.items !== undefined) return `${typeOf(schema.items)}[]`;
  return schema.format !== undefined ? `${type} (${schema.format})` : type;
}

function jsonBlock(value: JsonValue): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2).replace(/```/g, "`\u200b``")}\n\`\`\``;
}

/** One operation (and its JSON view, for the request body) as a Markdown section. */
export function operationMarkdown(operation: OperationModel, view: JsonObject): string {
  const lines = [`## ${operation.method.toUpperCase()} ${cell(operation.path)}`, ""];
  if (operation.operationId) lines.push(`**operationId:** \`${cell(operation.operationId)}\``, "");
  if (operation.deprecated) lines.push("**Deprecated.**", "");
  if (operation.summary) lines.push(documentText(operation.summary), "");
  if (operation.description && operation.description !== operation.summary) lines.push(documentText(operation.description), "");
  if (operation.parameters.length > 0) {
    lines.push("### Parameters", "", "| name | in | required | type | description |", "|---|---|---|---|---|");
    for (const p of operation.parameters)
      lines.push(
        `| ${cell(p.name)} | ${cell(p.in)} | ${p.required ? "yes" : "no"} | ${cell(typeOf(p.schema ?? p.content?.schema))} | ${cell(p.description)} |`,
      );
    lines.push("");
  }
  if (view.requestBody !== null && view.requestBody !== undefined) lines.push("### Request body", "", jsonBlock(view.requestBody), "");
  if (operation.responses.length > 0) {
    lines.push("### Responses", "");
    for (const response of operation.responses) {
      const schemas = response.content.map((media) => `${media.mediaType}: ${typeOf(media.schema) || "—"}`);
      lines.push(
        `- **${cell(response.status)}** ${cell(response.description)}${schemas.length > 0 ? ` (${schemas.map(cell).join(", ")})` : ""}`,
      );
    }
    lines.push("");
  }
  const { security } = operation;
  lines.push(
    "### Security",
    "",
    security.public ? "Public (no authentication required)." : `\`${JSON.stringify(security.requirements)}\``,
    "",
  );
  return lines.join("\n");
}

/** A component schema as Markdown: a property table and the schema (its view, inlined as asked) itself. */
export function schemaMarkdown(name: string, schema: Schema, view: JsonObject): string {
  const lines = [`## Schema ${cell(name)}`, ""];
  const object = typeof schema === "object" && schema !== null ? schema : undefined;
  const description = object?.keywords.description;
  if (typeof description === "string") lines.push(documentText(description), "");
  const required = new Set(object?.required ?? []);
  if (object?.properties) {
    lines.push("| property | type | required | description |", "|---|---|---|---|");
    for (const [property, value] of object.properties) {
      const text = typeof value === "object" && value !== null ? value.keywords.description : undefined;
      lines.push(`| ${cell(property)} | ${cell(typeOf(value))} | ${required.has(property) ? "yes" : "no"} | ${cell(text)} |`);
    }
    lines.push("");
  }
  const { schema_name: _, referenced_schemas: refs, ...body } = view;
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
