/** Work that runs beside the module rendering: the types module and the README, each from plain data. */
import type { OpenApiDocument } from "../../openapi/types.js";
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

/** Runs a job: openapi-typescript's module of a pruned document, formatted; or the README, formatted. */
export async function runSideJob(job: SideJob): Promise<string> {
  if (job.kind === "readme") return formatReadme(job.source, job.prettierOnly);
  const printed = `${GENERATED_HEADER}${await operationTypes(JSON.parse(job.document) as OpenApiDocument, job.document)}`;
  return (job.prettierOnly ? undefined : await formatTypesByMembers(printed)) ?? formatTypeScriptInParts(printed);
}
