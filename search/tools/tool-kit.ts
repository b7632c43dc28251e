import type { Logger } from "oapi-mcp-gen-runtime";
import { excerpt } from "oapi-mcp-gen-runtime";
import { HTTP_METHODS, type JsonObject } from "../../openapi/document/index.js";
import type { Catalogue, SearchSignIn } from "../catalogue/index.js";
import { ToolFailure } from "../documents/index.js";
import type { CallPolicy } from "../requests/index.js";

/** What a tool handler returns: structured content, or Markdown when asked for. */
export type ToolAnswer = { structured: JsonObject; markdown?: string };

/** What a handler may use: the shared catalogue and, when the operator enabled it, the call policy. */
export interface ToolContext {
  catalogue: Catalogue;
  calls?: CallPolicy;
  /** Resource mode: who loads and removes documents, and which scope lets them change other users'. */
  signIn?: SearchSignIn;
  /** Where a change to the catalogue is written to the audit trail. */
  log?: Logger;
}

/** The input schema of a search tool: an object of named arguments. */
type ToolInputSchema = { type: "object"; properties: JsonObject; required?: string[]; additionalProperties: false };

/** One search-server tool: its MCP definition and its handler. */
export interface SearchTool {
  name: string;
  title: string;
  description: string;
  inputSchema: ToolInputSchema;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  handler(args: Record<string, unknown>, context: ToolContext): Promise<ToolAnswer> | ToolAnswer;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 200;
/** Every string argument has a length cap: the work a call causes (matching, suggestions) grows with it. */
export const MAX_LENGTH = {
  name: 64,
  url: 4096,
  path: 2048,
  keyword: 512,
  method: 16,
  tag: 256,
  cursor: 16,
  identifier: 512,
} as const;

/** A capped string argument. */
export const text = (maxLength: number, description: string) => ({ type: "string", maxLength, description });
export const nameArg = text(MAX_LENGTH.name, "Name the API was loaded under (see list_apis).");
export const cursorArg = text(MAX_LENGTH.cursor, "next_cursor from a previous call, to get the next page.");
export const methodArg = text(MAX_LENGTH.method, "HTTP method, e.g. GET.");
/** A page size argument with its own default. */
export const limitArg = (fallback = DEFAULT_LIMIT) => ({
  type: "integer",
  minimum: 1,
  maximum: MAX_LIMIT,
  default: fallback,
  description: "Maximum number of items to return.",
});
export const inlineDepthArg = {
  type: "integer",
  minimum: 0,
  maximum: 3,
  default: 0,
  description: "Levels of schema $refs to inline (0 keeps $refs and lists them in referenced_schemas).",
};
export const formatArg = {
  type: "string",
  enum: ["json", "markdown"],
  default: "json",
  description: "json (structured) or markdown (a readable export).",
};
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** An object of named arguments, none but those listed. */
export function input(properties: JsonObject, required: string[] = []): ToolInputSchema {
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** The page size asked for (validation fills in the tool's default). */
function limitOf(args: Record<string, unknown>): number {
  return typeof args.limit === "number" ? args.limit : DEFAULT_LIMIT;
}

/** A string argument, or undefined when it is absent or empty (the input schema already checked its type). */
export function stringArg(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** How many levels of `$ref` a view inlines. */
export function inlineDepthOf(args: Record<string, unknown>): { inlineDepth: number } {
  return { inlineDepth: typeof args.inline_depth === "number" ? args.inline_depth : 0 };
}

/** The answer, with its Markdown export when the caller asked for one. */
export function answer(args: Record<string, unknown>, structured: JsonObject, markdown: () => string): ToolAnswer {
  return args.format === "markdown" ? { structured, markdown: markdown() } : { structured };
}

/** A `method` argument lower-cased, or a failure naming the methods OpenAPI knows. */
export function methodOf(args: Record<string, unknown>): string | undefined {
  const method = stringArg(args, "method");
  if (method === undefined) return undefined;
  const lower = method.toLowerCase();
  const known = HTTP_METHODS.find((each) => each === lower);
  if (known !== undefined) return known;
  throw new ToolFailure(
    `invalid method '${excerpt(method, 24)}': use one of ${HTTP_METHODS.map((known) => known.toUpperCase()).join(", ")}`,
  );
}

/** The window a page asks for: the offset its cursor names (0 without one; any other cursor is refused) and its limit. */
export function pageWindow(args: Record<string, unknown>): { offset: number; limit: number; cursor?: string } {
  const cursor = stringArg(args, "cursor");
  const offset = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(offset) || offset < 0) throw invalidCursor(cursor);
  return { offset, limit: limitOf(args), ...(cursor === undefined ? {} : { cursor }) };
}

function invalidCursor(cursor: string | undefined): ToolFailure {
  return new ToolFailure(`invalid cursor '${excerpt(String(cursor), 24)}'`);
}

/** The cursor of the page after a window over `total` items; a cursor past the end is refused. */
export function cursorAfter(window: { offset: number; limit: number; cursor?: string }, total: number): string | null {
  if (window.offset > total) throw invalidCursor(window.cursor);
  return window.offset + window.limit < total ? String(window.offset + window.limit) : null;
}

/** One page of each of several lists, moved on together by one cursor until the longest one ends. */
export function pagesOf<L extends Record<string, readonly unknown[]>>(
  args: Record<string, unknown>,
  lists: L,
): { pages: { [K in keyof L]: { total: number; items: L[K][number][] } }; next_cursor: string | null } {
  const window = pageWindow(args);
  const next_cursor = cursorAfter(window, Math.max(0, ...Object.values(lists).map((list) => list.length)));
  const { offset, limit } = window;
  const pages = Object.fromEntries(
    Object.entries(lists).map(([name, list]) => [name, { total: list.length, items: list.slice(offset, offset + limit) }]),
  ) as { [K in keyof L]: { total: number; items: L[K][number][] } };
  return { pages, next_cursor };
}

/**
 * One page of a list: `limit` (the input schema's default fills it in when the caller gives none) and an opaque
 * numeric `cursor`, with the total.
 */
export function pageOf<T>(args: Record<string, unknown>, items: readonly T[]) {
  const { pages, next_cursor } = pagesOf(args, { items });
  return { ...pages.items, next_cursor };
}
