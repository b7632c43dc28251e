import type { CreateMessageRequest } from "@modelcontextprotocol/sdk/types.js";
import { plainLine } from "../base/plain-line.js";
import { excerpt } from "../base/suggest.js";
import type { ToolDefinition } from "../base/tool.js";
import { firstSentence } from "../schema/schema-fit.js";
import type { AskModel } from "../tools/tool-runtime-contract.js";
import type { ApiPart } from "./api-parts.js";

/** How the search asks the client's model to choose: among how many matches, how many picks, how long it waits. */
export const MODEL_CHOICE = {
  /** The index's best matches the model chooses among (the right one is in the first 50 for 95 % of held-out requests). */
  candidates: 50,
  /** The most picks read from the answer; they lead the results, the index's order follows. */
  picks: 5,
  maxTokens: 40,
  /** Characters of one candidate's line (its summary and first sentence), so the prompt stays near 1,500 tokens. */
  lineChars: 160,
  /** When no match fits, the most parts the model may name, whose operations it then chooses among. */
  parts: 3,
  /** How many of those operations it is shown (GitLab's projects hold 258), on shorter lines: about 2,500 tokens. */
  partCandidates: 120,
  partLineChars: 90,
  /** The most parts a prompt lists (Jira has 86), and the characters of one part's line. */
  partLines: 150,
  partChars: 100,
} as const;

const SYSTEM_PROMPT =
  "You match a user's request to the API operation that does it. Answer only with the numbers of the operations " +
  "that do what the request asks, best first, at most 5, separated by commas; answer 0 if none does.";

const PARTS_PROMPT =
  "You match a user's request to the parts of an API that would hold the operation that does it. Answer only with " +
  "the numbers of those parts, best first, at most 3, separated by commas; answer 0 if none would.";

/** The note when nothing matched and the model cannot look elsewhere (a search within a part). */
export const NOTHING_MATCHED = "Nothing matched the query: ask in the API's own words, or within one of its parts (tag).";

/** What the search knows for a model's choice: the API, its operations in registry order, its parts, and its ranking. */
export interface ChoiceContext {
  readonly apiTitle: string;
  readonly tools: readonly ToolDefinition[];
  readonly parts: readonly ApiPart[];
  /** The operations among `ids`, the index's matches for the query first, then the rest in registry order. */
  rankWithin(query: string, ids: ReadonlySet<number>): Promise<number[]>;
}

/** The model's choice: the operations it put first (none: the index's order stands), and the note that says so. */
export interface ModelChoice {
  picks: number[];
  note: string;
  /** Why the model could not answer, when it could not (the caller logs it). */
  failed?: string;
}

/**
 * Asks the client's model which of the index's best matches (`matching`, best first) do what the query asks. When it
 * says none does and `parts` allows, it names the parts that would hold the operation, and chooses among theirs: the
 * vocabulary the index lacks ("showcase" for album) is the model's.
 */
export async function chooseWithModel(
  askModel: AskModel,
  context: ChoiceContext,
  query: string,
  matching: readonly number[],
  parts: boolean,
): Promise<ModelChoice> {
  const first = matching.slice(0, MODEL_CHOICE.candidates);
  const among = `the ${first.length} best matches`;
  const inIndexOrder = "the results are in the index's order.";
  const unanswered = (asked: string, reason: string) =>
    `Your model was asked ${asked} but did not answer (${excerpt(reason, 120)}); ${inIndexOrder}`;
  let chosen: number[] | undefined = [];
  try {
    if (first.length > 0) chosen = await choose(askModel, context, query, first);
  } catch (error) {
    const failed = reasonOf(error);
    return { picks: [], note: unanswered(`to choose among ${among}`, failed), failed };
  }
  if (chosen === undefined) return { picks: [], note: `Your model's answer named none of ${among}; ${inIndexOrder}` };
  if (chosen.length > 0)
    return { picks: chosen, note: `Your model chose ${firstResults(chosen)} among ${among}; the rest follow in the index's order.` };
  const none =
    first.length === 0
      ? "Nothing matched the query's words"
      : first.length === 1
        ? "Your model found the one match does not do what the query asks"
        : `Your model found none of ${among} does what the query asks`;
  const it = first.length === 0 ? "your model" : "it";
  if (!parts || context.parts.length < 2) return { picks: [], note: first.length === 0 ? NOTHING_MATCHED : `${none}; ${inIndexOrder}` };
  const listed = context.parts.slice(0, MODEL_CHOICE.partLines);
  let picked: ApiPart[];
  try {
    const named = readChoice(await askModel(partsRequest(context.apiTitle, query, listed)), listed.length) ?? [];
    picked = named.slice(0, MODEL_CHOICE.parts).flatMap((at) => listed[at] ?? []);
  } catch (error) {
    const failed = reasonOf(error);
    return { picks: [], note: `${none}. ${unanswered("which parts of the API would hold it", failed)}`, failed };
  }
  if (picked.length === 0) return { picks: [], note: `${none}, and ${it} named no part that would hold it; ${inIndexOrder}` };
  const where = `the part${picked.length === 1 ? "" : "s"} ${picked.map((part) => JSON.stringify(part.tag)).join(", ")}`;
  const inParts = await context.rankWithin(query, new Set(picked.flatMap((part) => part.members)));
  let again: number[];
  try {
    again = (await choose(askModel, context, query, inParts.slice(0, MODEL_CHOICE.partCandidates), MODEL_CHOICE.partLineChars)) ?? [];
  } catch (error) {
    const failed = reasonOf(error);
    return { picks: [], note: `${none}; ${it} named ${where}. ${unanswered("to choose among their operations", failed)}`, failed };
  }
  if (again.length === 0) return { picks: [], note: `${none}, nor does any operation of ${where}, which ${it} named; ${inIndexOrder}` };
  return {
    picks: again,
    note: `${none}; ${it} named ${where}, and chose ${firstResults(again)} among their operations; the rest follow in the index's order.`,
  };
}

/** The operations the model names among `candidates` (ids), best first; undefined when it names no number. */
async function choose(
  askModel: AskModel,
  context: ChoiceContext,
  query: string,
  candidates: readonly number[],
  lineChars: number = MODEL_CHOICE.lineChars,
): Promise<number[] | undefined> {
  const tools = candidates.flatMap((id) => context.tools[id] ?? []);
  const chosen = readChoice(await askModel(choiceRequest(context.apiTitle, query, tools, lineChars)), tools.length);
  return chosen?.flatMap((at) => candidates[at] ?? []);
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function firstResults(picks: readonly number[]): string {
  return picks.length === 1 ? "the first result" : `the first ${picks.length} results`;
}

/** The sampling request that shows the model a request and the API's numbered parts, each with its size and note. */
export function partsRequest(apiTitle: string, query: string, parts: readonly ApiPart[]): CreateMessageRequest["params"] {
  const lines = parts.map((part, at) => {
    const named = `${part.tag} (${part.operations} operation${part.operations === 1 ? "" : "s"})`;
    // Notes are plain already (apiParts).
    return `${at + 1}. ${excerpt(part.note ? `${named}: ${part.note}` : named, MODEL_CHOICE.partChars)}`;
  });
  const text = [`API: ${apiTitle}`, `Request: ${JSON.stringify(query)}`, "Parts:", ...lines].join("\n");
  return { ...samplingSettings(), messages: [{ role: "user", content: { type: "text", text } }], systemPrompt: PARTS_PROMPT };
}

/** The sampling request that shows the model a request and the numbered candidates. */
export function choiceRequest(
  apiTitle: string,
  query: string,
  candidates: readonly ToolDefinition[],
  lineChars: number = MODEL_CHOICE.lineChars,
): CreateMessageRequest["params"] {
  const lines = candidates.map((tool, at) => `${at + 1}. ${candidateLine(tool, lineChars)}`);
  const text = [`API: ${apiTitle}`, `Request: ${JSON.stringify(query)}`, "Operations:", ...lines].join("\n");
  return { ...samplingSettings(), messages: [{ role: "user", content: { type: "text", text } }], systemPrompt: SYSTEM_PROMPT };
}

/** No conversation context, a short answer, and a fast, cheap model: the choice is among one-line summaries. */
function samplingSettings(): Omit<CreateMessageRequest["params"], "messages"> {
  return {
    includeContext: "none",
    temperature: 0,
    maxTokens: MODEL_CHOICE.maxTokens,
    modelPreferences: { speedPriority: 0.8, costPriority: 0.7, intelligencePriority: 0.3 },
  };
}

/** `POST /users/{userId}/meetings: Create a meeting. Use this API to create a meeting for a user.` */
function candidateLine(tool: ToolDefinition, lineChars: number): string {
  const summary = plainLine(tool.title);
  const sentence = plainLine(firstSentence(tool.description));
  const bare = summary.replace(/\.$/, "");
  // A description that opens with the summary says it again and more: it stands alone.
  const text = sentence.toLowerCase().startsWith(bare.toLowerCase()) ? sentence : sentence ? `${bare}. ${sentence}` : summary;
  return `${tool._meta.method.toUpperCase()} ${tool._meta.path}: ${excerpt(text, lineChars)}`;
}

/**
 * The candidates' positions the answer names (`3, 12, 1` → 2, 11, 0), in its order, without repeats: whole numbers
 * only (`-1` and `3.5` name nothing). Empty for `0` (none fits); undefined when it names no candidate otherwise
 * (`banana`, `99` of 50).
 */
export function readChoice(answer: string, count: number): number[] | undefined {
  const numbers = [...answer.matchAll(/(?<![\d.-])\d+(?![\d.]*\d)/g)].map((match) => Number(match[0]));
  const picks: number[] = [];
  for (const number of numbers) {
    if (number >= 1 && number <= count && !picks.includes(number - 1)) picks.push(number - 1);
    if (picks.length === MODEL_CHOICE.picks) break;
  }
  if (picks.length === 0 && !numbers.includes(0)) return undefined;
  return picks;
}
