/** Work that runs beside the module rendering: the types module and the README, each from plain data. */
import type { OpenApiDocument } from "../openapi/types.js";
import { GENERATED_HEADER } from "../templates/header.js";
import { formatDocument, formatTypeScriptInParts } from "./format.js";
import { operationTypes } from "./operation-types.js";
import { formatTypesByMembers } from "./types-layout.js";

/** A job for the side thread. */
export type SideJob = { kind: "types"; document: OpenApiDocument; prettierOnly?: boolean } | { kind: "markdown"; text: string };

/** Runs a job: openapi-typescript's module of a pruned document, formatted; or Markdown formatted by prettier. */
export async function runSideJob(job: SideJob): Promise<string> {
  if (job.kind === "markdown") return formatDocument(job.text, "markdown");
  const printed = `${GENERATED_HEADER}${await operationTypes(job.document)}`;
  return (job.prettierOnly ? undefined : await formatTypesByMembers(printed)) ?? formatTypeScriptInParts(printed);
}
