/** Work that runs beside the module rendering: the types module, the search index and the README, each from plain data. */
import type { DiscoveryData } from "oapi-mcp-gen-runtime";
import { isOpenApiDocument, type OpenApiDocument } from "../../openapi/document/index.js";
import { GENERATED_HEADER } from "../../templates/header.js";
import type { ReadmeSource } from "../../templates/readme.js";
import { formatDocument, formatTypeScript, formatTypeScriptInParts } from "../layout/format.js";
import { formatReadme } from "../layout/readme-layout.js";
import { formatTypesByMembers } from "../layout/types-layout.js";
import { type DiscoveryInput, discoveryDataOf } from "../model/discovery.js";
import { loadTypingFunctions, operationTypes } from "../types/operation-types.js";

/** A job for the side thread (a document goes as JSON text: a string crosses to a thread faster than objects). */
export type SideJob =
  | { kind: "types"; document: string; prettierOnly?: boolean }
  | { kind: "readme"; source: ReadmeSource; prettierOnly?: boolean }
  | { kind: "discovery"; input: DiscoveryInput };

/** What a job makes: a file's text, or the search data a discovery server loads. */
export type SideResult = { kind: "text"; text: string } | { kind: "discovery"; data: DiscoveryData };

/** The pruned document a types job carries, as the thread that sent it wrote it. */
function documentOf(text: string): OpenApiDocument {
  const document: unknown = JSON.parse(text);
  if (!isOpenApiDocument(document)) throw new Error("a types job carries no OpenAPI document");
  return document;
}

/** Runs a job: openapi-typescript's module of a pruned document, formatted; the search data; or the README, formatted. */
export async function runSideJob(job: SideJob): Promise<SideResult> {
  if (job.kind === "discovery") return { kind: "discovery", data: discoveryDataOf(job.input) };
  if (job.kind === "readme") return { kind: "text", text: await formatReadme(job.source, job.prettierOnly) };
  const printed = `${GENERATED_HEADER}${await operationTypes(documentOf(job.document), job.document)}`;
  const text = (job.prettierOnly ? undefined : await formatTypesByMembers(printed)) ?? (await formatTypeScriptInParts(printed));
  return { kind: "text", text };
}

/** Loads what the jobs run on (openapi-typescript, TypeScript, prettier's parsers) before the first job comes. */
export async function warmUp(): Promise<void> {
  loadTypingFunctions();
  await formatTypeScript("export type T = { a: string };\n");
  await formatDocument("# T\n\n| a |\n| - |\n", "markdown");
}
