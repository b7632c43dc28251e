import type { JsonObject, JsonValue } from "../../openapi/document/index.js";
import type { OperationModel, Schema } from "../../openapi/model/index.js";
import { refName } from "../../openapi/references/index.js";
import { clipText } from "./bounded.js";

/** Text safe in one Markdown table cell or heading: one line, pipes escaped, no raw HTML. */
export function cell(value: unknown): string {
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value);
  return text
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/</g, "&lt;")
    .replace(/\[/g, "\\[")
    .trim();
}

/** The longest run of backticks in a text: a fence must be longer for the text not to close it. */
function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/** Text as one inline code span: on one line, fenced by more backticks than it holds. */
function codeSpan(value: string): string {
  const text = value.replace(/[\r\n\u2028\u2029]+/g, " ");
  const fence = "`".repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * A document's free text (summary, description) as a quoted block: every line starts with `> ` and a block marker at
 * its start is escaped, so the text cannot open a heading, a fence or a fake section of this export.
 */
function documentText(value: unknown): string {
  return String(value)
    .split(/\r\n|[\r\n\u2028\u2029]/)
    .map(
      (line) =>
        `> ${line
          .replace(/</g, "&lt;")
          .replace(/\[/g, "\\[")
          .replace(/^(\s*)([#>`~=|*+-]|\d+[.)])/, "$1\\$2")}`,
    )
    .join("\n");
}

/** An operation's description is cut here, so that its parameters, body and responses still fit the answer. */
const LONG_DESCRIPTION = 8_000;
/** A parameter's description is cut here in its table row. */
const LONG_CELL = 1_000;

/** A short type label: a referenced schema's name, the type (with format), or `Item[]`. */
function typeOf(schema: Schema | undefined): string {
  if (typeof schema !== "object" || schema === null) return "";
  if (schema.ref !== undefined) return schema.ref.startsWith("#/components/schemas/") ? refName(schema.ref) : schema.ref;
  if (schema.allOf?.length === 1) return typeOf(schema.allOf[0]);
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "");
  if (type === "array" && schema.items !== undefined) return `${typeOf(schema.items)}[]`;
  return schema.format !== undefined ? `${type} (${schema.format})` : type;
}

/** A fenced code block whose fence is longer than any backtick run in the text, so the text cannot close it. */
export function codeBlock(language: string, text: string): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function jsonBlock(value: JsonValue): string {
  return codeBlock("json", JSON.stringify(value, null, 2));
}

/** The line under a paged table: how many of how many, and the cursor for the next page. */
function pagingLine(shown: number, paging: { total: number; next_cursor: string | null }): string {
  const next = paging.next_cursor === null ? "" : ` Next page: cursor \`${cell(paging.next_cursor)}\`.`;
  return `${shown} of ${paging.total} shown.${next}`;
}

/** A titled table; every value is one escaped cell. */
export function tableMarkdown(
  title: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  paging?: { total: number; next_cursor: string | null },
): string {
  const lines = [`## ${cell(title)}`, ""];
  if (paging) lines.push(pagingLine(rows.length, paging), "");
  if (rows.length === 0) lines.push("(none)");
  else for (const line of tableLines(columns, rows)) lines.push(line);
  return `${lines.join("\n")}\n`;
}

/** A table's lines: the header, the rule, and a row of escaped cells each. */
function tableLines(columns: readonly string[], rows: readonly (readonly unknown[])[]): string[] {
  return [
    `| ${columns.map(cell).join(" | ")} |`,
    `|${columns.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${columns.map((_, index) => cell(row[index])).join(" | ")} |`),
  ];
}

/** A titled list of labelled values, then any further sections as written. */
export function fieldsMarkdown(title: string, fields: readonly (readonly [string, unknown])[], ...sections: string[]): string {
  const lines = [`## ${cell(title)}`, ""];
  for (const [label, value] of fields) lines.push(`- **${cell(label)}:** ${cell(value)}`);
  return [lines.join("\n"), ...sections].join("\n\n").concat("\n");
}

/** A document's free text under a label, quoted so it cannot forge structure. */
export function quotedMarkdown(label: string, value: string): string {
  return value === "" ? "" : `### ${cell(label)}\n\n${documentText(value)}`;
}

/** One operation (and its JSON view, for the request body) as a Markdown section. */
export function operationMarkdown(operation: OperationModel, view: JsonObject): string {
  const lines = [`## ${operation.method.toUpperCase()} ${cell(operation.path)}`, ""];
  if (operation.operationId) lines.push(`**operationId:** ${codeSpan(operation.operationId)}`, "");
  if (operation.deprecated) lines.push("**Deprecated.**", "");
  if (operation.summary) lines.push(documentText(operation.summary), "");
  if (operation.description && operation.description !== operation.summary)
    lines.push(documentText(clipText(operation.description, LONG_DESCRIPTION)), "");
  if (operation.parameters.length > 0) {
    const rows = operation.parameters.map((p) => [
      p.name,
      p.in,
      p.required ? "yes" : "no",
      typeOf(p.schema ?? p.content?.schema),
      clipText(p.description ?? "", LONG_CELL),
    ]);
    lines.push("### Parameters", "", ...tableLines(["name", "in", "required", "type", "description"], rows), "");
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
    security.public ? "Public (no authentication required)." : codeSpan(JSON.stringify(security.requirements)),
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
    const rows = [...object.properties].map(([property, value]) => [
      property,
      typeOf(value),
      required.has(property) ? "yes" : "no",
      typeof value === "object" && value !== null ? value.keywords.description : undefined,
    ]);
    for (const line of tableLines(["property", "type", "required", "description"], rows)) lines.push(line);
    lines.push("");
  }
  const { schema_name: _, referenced_schemas: refs, ...body } = view;
  lines.push(jsonBlock(body));
  if (Array.isArray(refs) && refs.length > 0) lines.push("", `Referenced schemas: ${refs.map((ref) => codeSpan(String(ref))).join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** Search or listing results as a Markdown table (with the API column when they come from several). */
export function endpointsMarkdown(
  title: string,
  results: readonly JsonObject[],
  paging: { total: number; next_cursor: string | null },
): string {
  const withApi = results.some((result) => typeof result.api === "string");
  const columns = [...(withApi ? ["api"] : []), "method", "path", "operationId", "summary"];
  const rows = results.map((result) => [
    ...(withApi ? [result.api] : []),
    String(result.method).toUpperCase(),
    result.path,
    result.operationId,
    result.summary,
  ]);
  return tableMarkdown(title, columns, rows, paging);
}
