/** Work that runs beside the module rendering: the types module and the README, each from plain data. */
import { isOpenApiDocument, type OpenApiDocument } from "../../openapi/document/index.js";
import { GENERATED_HEADER } from "../../templates/header.js";
import type { ReadmeSource } from "../../templates/readme.js";
import { formatTypeScriptInParts } from "../layout/format.js";
import { formatReadme } from "../layout/readme-layout.js";
import { formatTypesByMembers } from "../layout/types-layout.js";
import { operationTypes } from "../types/operation-types.js";

/** A job for the side thread (a document goes as JSON text: a string crosses to a thread faster than objects). */
export type SideJob =
  | { kind: "types"; document: string; prettierOnly?: boolean }
  | { kind: "readme"; source: ReadmeSource; prettierOnly?: boolean };

/** The pruned document a types job carries, as the thread that sent it wrote it. */
function documentOf(text: string): OpenApiDocument {
  const document: unknown = JSON.parse(text);
  if (!isOpenApiDocument(document)) throw new Error("a types job carries no OpenAPI document");
  return document;
}

/** Runs a job: openapi-typescript's module of a pruned document, formatted; or the README, formatted. */
export async function runSideJob(job: SideJob): Promise<string> {
  if (job.kind === "readme") return formatReadme(job.source, job.prettierOnly);
  const printed = `${GENERATED_HEADER}${await operationTypes(documentOf(job.document), job.document)}`;
  return (job.prettierOnly ? undefined : await formatTypesByMembers(printed)) ?? formatTypeScriptInParts(printed);
}
