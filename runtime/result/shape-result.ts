import { createHash } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../base/logger.js";
import type { ToolDefinition } from "../base/tool.js";
import { describeErrors, type ToolValidators } from "../schema/validation.js";
import { binaryContent, binarySummary, bodyNature, type UpstreamResponse } from "./response-content.js";
import { decodeJson, errorResult, successResult, wrapStructuredContent } from "./result.js";

/**
 * Shapes a 2xx response by what it really is (its `Content-Type`), whatever the document declared: JSON becomes
 * structured content; images, audio and other bytes become image, audio or embedded-resource content (structured
 * content then summarises them where the declared result allows it); text becomes text. A difference from the
 * document is logged.
 */
export function shapeResponse(
  tool: ToolDefinition,
  validators: ToolValidators,
  outcome: UpstreamResponse,
  log: Logger,
  uri: string,
): { result: CallToolResult; problem?: string } {
  const { contentType } = outcome;
  const declared = tool.http.response;
  const nature = bodyNature(contentType);
  const text = outcome.body.toString("utf8");
  if (nature === "image" || nature === "audio" || (nature === "binary" && !(declared === "json" && decodeJson(text).ok))) {
    if (declared !== "binary") log.warn("upstream content type differs from the document", { tool: tool.name, declared, contentType });
    const sha256 = digestOf(outcome);
    const blocks = outcome.truncated ? [] : [binaryContent(nature, contentType, outcome.body, uri)];
    if (declared === "text")
      return checkResult(tool, validators, { result: binarySummary(contentType, outcome.size, sha256) }, log, blocks);
    if (declared === "empty") return checkResult(tool, validators, { ok: true }, log, blocks);
    // Declared binary, or JSON that turned out to be bytes: the result says what they are.
    const described = { contentType: contentType || "application/octet-stream", size: outcome.size, sha256 };
    return checkResult(tool, validators, described, log, blocks);
  }
  if (declared === "binary") {
    const sha256 = digestOf(outcome);
    const summary = { contentType: contentType || "application/octet-stream", size: outcome.size, sha256 };
    if (nature !== "text" && nature !== "json") {
      return checkResult(tool, validators, summary, log, outcome.truncated ? [] : [{ type: "text", text: boundedText(text) }]);
    }
    // The API answered with text (a ping's "pong"): the text is the result, beside what a binary answer would say.
    log.warn("upstream content type differs from the document", { tool: tool.name, declared, contentType });
    return checkResult(tool, validators, { ...summary, text: boundedText(text) }, log);
  }
  if (declared === "text") {
    const bounded = boundedText(text);
    const structured = outcome.truncated || bounded.length < text.length ? { result: bounded, truncated: true } : { result: bounded };
    return checkResult(tool, validators, structured, log);
  }
  let value: unknown;
  if (text.trim() !== "") {
    const decoded = decodeJson(text);
    if (decoded.ok) value = decoded.value;
    else {
      // A successful call whose body is not the JSON the document promised: its text is the result.
      log.warn("upstream body is not JSON", { tool: tool.name, contentType: contentType || "none" });
      return checkResult(tool, validators, { result: boundedText(text) }, log);
    }
  }
  // `{}` stays `{}` (as the API answered); only an empty body becomes `{ ok: true }`.
  // A root `constructor` key makes SDK clients (zod records) refuse the whole result: such an object goes wrapped.
  const wrap = tool.http.wrapResult || hasOwnConstructor(value);
  if (wrap && !tool.http.wrapResult) log.warn("upstream result has a constructor key: returned as {result}", { tool: tool.name });
  try {
    return checkResult(tool, validators, wrap ? { result: value } : wrapStructuredContent(value), log);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // JSON nested past what can be checked or written out again (the call stack runs out): its text is the result.
    log.warn("upstream JSON nests too deep for structured content: returned as text", { tool: tool.name });
    return checkResult(tool, validators, { result: boundedText(text) }, log);
  }
}

/** Characters of text a result carries: a model reads no more, and the MCP answer stays a few hundred KiB at most. */
const MAX_TEXT_CHARS = 100_000;

/**
 * Text for a model: at most 100,000 characters, marked when cut, with control characters (other than tab and line
 * breaks) shown as U+FFFD, so JSON escaping cannot multiply its size by six.
 */
function boundedText(text: string): string {
  const cut = text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}… [truncated: ${text.length} characters in all]` : text;
  return cut.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "\ufffd");
}

/**
 * Checks a successful result. `strict`: a result that does not match the document's schema is an error. `warn`: where
 * it differs from the document is logged, and the result goes back as structured content all the same (the listed
 * output schema accepts any object): the call did succeed.
 */
function checkResult(
  tool: ToolDefinition,
  validators: ToolValidators,
  structured: Record<string, unknown>,
  log: Logger,
  blocks: CallToolResult["content"] = [],
): { result: CallToolResult; problem?: string } {
  const { output, documented } = validators;
  if (documented !== undefined && !documented(structured)) logDifference(log, tool.name, describeErrors(documented.errors, 1));
  if (output === undefined || output(structured)) {
    const result = successResult(structured);
    return { result: blocks.length > 0 ? { ...result, content: [...blocks, ...result.content] } : result };
  }
  // The call did succeed: say so, and that a change it made stands, before what the strict check refused.
  const applied = tool.annotations.readOnlyHint === true ? "" : " and its change was applied";
  const message =
    `${tool.name} succeeded upstream${applied}, but the response does not match the output schema of ${tool.name} ` +
    `(output.validate: strict): ${describeErrors(output.errors)}`;
  return { result: errorResult(message, JSON.stringify(structured)), problem: message };
}

/** Differences already logged, per logger: a busy server meets the same one on every call. */
const loggedDifferences = new WeakMap<Logger, Set<string>>();
/** Differences remembered per logger; past this many, new ones are logged every time (never dropped). */
const MAX_REMEMBERED_DIFFERENCES = 1_000;

/** Logs where a result differs from the document, once per tool and difference. */
function logDifference(log: Logger, tool: string, first: string): void {
  const seen = loggedDifferences.get(log) ?? new Set<string>();
  loggedDifferences.set(log, seen);
  // The first difference is the key, without the count of further ones (which changes from one result to the next).
  const key = `${tool}\u0000${first.replace(/;? and \d+ more\b.*$/s, "")}`;
  if (seen.has(key)) return;
  if (seen.size < MAX_REMEMBERED_DIFFERENCES) seen.add(key);
  log.warn("upstream result differs from the document", { tool, first, repeats: "not logged again" });
}

function hasOwnConstructor(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, "constructor");
}

/** The body's SHA-256: hashed while streaming for binary reads, else now. */
function digestOf(outcome: UpstreamResponse): string {
  return outcome.sha256 ?? createHash("sha256").update(outcome.body).digest("hex");
}
