/** What a search result says an operation does, where its summary alone would mislead a model. */
import type { ToolDefinition } from "../base/tool.js";
import { firstSentence } from "../schema/schema-fit.js";
import { normalizeTerm, termSet, tokenize, withoutNamespace } from "./terms.js";

/** How many words a summary that only repeats its operation's name may have to be taken as generic. */
const GENERIC_WORDS = 3;

/**
 * The summary a result shows: the document's, followed by its description's first sentence where the summary only
 * repeats the operation's name (Twilio's "Update call: Initiates a call redirect or terminates a call.").
 */
export function shownSummary(tool: ToolDefinition): string {
  const summary = tool.title.trim();
  const name = termSet(withoutNamespace(`${tool.name} ${tool._meta.operationId ?? ""}`));
  const said = termSet(summary);
  // Generic: a verb and a noun or two, each already in the name ("Update call", "Create account").
  if (summary === "" || said.size > GENERIC_WORDS || [...said].some((term) => !name.has(term))) return summary;
  const sentence = plainSentence(tool.description);
  // The sentence must say what the name does not: two words of its own at least ("Deletes an existing address" does not).
  const added = [...termSet(sentence)].filter((term) => !name.has(term) && !said.has(term));
  return added.length < NEW_WORDS ? summary : `${summary.replace(/[.:]$/, "")}: ${sentence}`;
}

/** How many words of its own a description's first sentence needs to be shown beside a generic summary. */
const NEW_WORDS = 2;

/** A description's first sentence without Markdown, notes and "This endpoint allows you to" ("" when it is a note). */
function plainSentence(description: string): string {
  const text = description
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__|`/g, "")
    .trim();
  if (/^>|^\[!/.test(text)) return "";
  const sentence = firstSentence(text).replace(
    /^(?:this|the)\s+(?:endpoint|method|call|operation|api|request|route)\s+(?:allows\s+you\s+to|lets\s+you|is\s+used\s+to|can\s+be\s+used\s+to|will)\s+/i,
    "",
  );
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

/** Summary verbs (normalised) and the methods that can do what they say. */
const SAID_METHODS: ReadonlyMap<string, readonly string[]> = new Map([
  ["creat", ["post", "put"]],
  ["add", ["post", "put", "patch"]],
  ["updat", ["put", "patch", "post"]],
  ["delet", ["delete", "post", "put"]],
  ["remov", ["delete", "post", "put", "patch"]],
]);

/**
 * Where a summary's verb contradicts the method (a DELETE summarised as "Updates a payment", a GET as "Delete…"):
 * what the summary says, for the result line to flag; undefined where they agree or the verb says nothing of methods.
 */
export function contradiction(method: string, summary: string): string | undefined {
  const words = tokenize(summary).map((word) => word.toLowerCase());
  const word = words[0] ?? "";
  // "Create or update…": either verb agreeing is enough.
  const verbs = words[1] === "or" ? [word, words[2] ?? ""] : [word];
  const agrees = (said: string) => {
    // "Updates", "Deleted": the verb's own term.
    const methods = SAID_METHODS.get(normalizeTerm(said.endsWith("es") && !said.endsWith("ses") ? said.slice(0, -1) : said) ?? "");
    return methods === undefined || methods.includes(method.toLowerCase());
  };
  return verbs.some(agrees) ? undefined : `its summary says "${word}" but its method is ${method.toUpperCase()}`;
}
