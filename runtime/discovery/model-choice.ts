import type { CreateMessageRequest } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "../base/tool.js";
import { firstSentence } from "../schema/schema-fit.js";

/** How the search asks the client's model to choose: among how many matches, how many picks, how long it waits. */
export const MODEL_CHOICE = {
  /** The index's best matches the model chooses among (the right one is in the first 50 for 95 % of held-out requests). */
  candidates: 50,
  /** The most picks read from the answer; they lead the results, the index's order follows. */
  picks: 5,
  maxTokens: 40,
  /** Characters of one candidate's line (its summary and first sentence), so the prompt stays near 1,500 tokens. */
  lineChars: 160,
} as const;

const SYSTEM_PROMPT =
  "You match a user's request to the API operation that does it. Answer only with the numbers of the operations " +
  "that do what the request asks, best first, at most 5, separated by commas; answer 0 if none does.";

/** The sampling request that shows the model a request and the numbered candidates. */
export function choiceRequest(apiTitle: string, query: string, candidates: readonly ToolDefinition[]): CreateMessageRequest["params"] {
  const lines = candidates.map((tool, at) => `${at + 1}. ${candidateLine(tool)}`);
  const text = [`API: ${apiTitle}`, `Request: ${JSON.stringify(query)}`, "Operations:", ...lines].join("\n");
  return {
    messages: [{ role: "user", content: { type: "text", text } }],
    systemPrompt: SYSTEM_PROMPT,
    includeContext: "none",
    temperature: 0,
    maxTokens: MODEL_CHOICE.maxTokens,
    // A small fast model chooses as well as a large one among fifty one-line summaries.
    modelPreferences: { speedPriority: 0.8, costPriority: 0.7, intelligencePriority: 0.3 },
  };
}

/** `POST /users/{userId}/meetings: Create a meeting. Use this API to create a meeting for a user.` */
function candidateLine(tool: ToolDefinition): string {
  const summary = oneLine(tool.title);
  const sentence = oneLine(firstSentence(tool.description));
  const bare = summary.replace(/\.$/, "");
  // A description that opens with the summary says it again and more: it stands alone.
  const text = sentence.toLowerCase().startsWith(bare.toLowerCase()) ? sentence : sentence ? `${bare}. ${sentence}` : summary;
  const cut = text.length > MODEL_CHOICE.lineChars ? `${text.slice(0, MODEL_CHOICE.lineChars - 1)}…` : text;
  return `${tool._meta.method.toUpperCase()} ${tool._meta.path}: ${cut}`;
}

/** Text on one line, Markdown links and emphasis read as their words. */
function oneLine(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The candidates' positions the answer names (`3, 12, 1` → 2, 11, 0), in its order, without repeats or strays: empty
 * for `0` (none fits), undefined for an answer that names no number at all.
 */
export function readChoice(answer: string, count: number): number[] | undefined {
  const numbers = [...answer.matchAll(/\d+/g)].map((match) => Number(match[0]));
  if (numbers.length === 0) return undefined;
  const picks: number[] = [];
  for (const number of numbers) {
    if (number >= 1 && number <= count && !picks.includes(number - 1)) picks.push(number - 1);
    if (picks.length === MODEL_CHOICE.picks) break;
  }
  return picks;
}
