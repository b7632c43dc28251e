import { createRequire } from "node:module";
import type TurndownService from "turndown";

/** Tags that mark a description as HTML (Stripe writes `<p>…<a href=…>`); text such as `<id>` is left alone. */
const HTML_TAG =
  /<\/?(?:p|a|br|code|pre|ul|ol|li|strong|em|b|i|h[1-6]|table|thead|tbody|tr|td|th|div|span|blockquote|dl|dt|dd|hr)(?:\s[^<>]*)?\/?>/i;

let converter: TurndownService | undefined;
/** Converted texts: large documents repeat the same descriptions. */
const converted = new Map<string, string>();

/** A link relative to the API's own web site (`[confirm](/docs/api/…)`): from here it leads nowhere. */
const RELATIVE_LINK = /\[([^\]]*)\]\((?!https?:|mailto:)[^)\s]*\)/g;

/** A description as Markdown: HTML converted by turndown, a relative link as its text alone. */
export function markdownText(text: string): string {
  if (!HTML_TAG.test(text)) return text.includes("](") ? text.replace(RELATIVE_LINK, "$1") : text;
  let markdown = converted.get(text);
  if (markdown === undefined) {
    converter ??= plainConverter();
    markdown = converter.turndown(text).trim().replace(RELATIVE_LINK, "$1");
    if (converted.size < 10_000) converted.set(text, markdown);
  }
  return markdown;
}

/**
 * Turndown writing compact Markdown, without escaping the text's own `_` and `*` (a reader is a model, not a renderer).
 * Loaded on first need: most documents have no HTML, and turndown brings a DOM implementation with it.
 */
function plainConverter(): TurndownService {
  const Turndown: typeof TurndownService = createRequire(import.meta.url)("turndown");
  const service = new Turndown({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  service.escape = (text: string) => text;
  return service;
}
