import { words } from "oapi-mcp-gen-runtime";
import type { OperationModel } from "../../openapi/model/index.js";

/** What an operation does, by the words its document uses: the meaning its hints follow besides its method. */
export type OperationAction = "create" | "replace" | "update" | "delete" | "cancel" | "send" | "read";

/** Verbs by the action they name (HTTP method names are left out: `PostRefunds` says nothing the method does not). */
const VERBS: ReadonlyMap<string, OperationAction> = new Map([
  ...["create", "add", "insert", "register", "upload"].map((verb) => [verb, "create"] as const),
  ...["replace", "set", "overwrite"].map((verb) => [verb, "replace"] as const),
  ...["update", "edit", "modify", "change", "rename"].map((verb) => [verb, "update"] as const),
  ...["delete", "remove", "destroy", "purge", "erase", "drop", "detach", "unsubscribe"].map((verb) => [verb, "delete"] as const),
  ...["cancel", "revoke", "terminate", "void", "abort"].map((verb) => [verb, "cancel"] as const),
  ...["send", "notify", "publish", "broadcast"].map((verb) => [verb, "send"] as const),
]);

/** Verbs that read: an operationId starting with one names no change, whatever words follow. */
const READ_VERBS: ReadonlySet<string> = new Set([
  "get",
  "list",
  "search",
  "find",
  "read",
  "fetch",
  "retrieve",
  "show",
  "check",
  "count",
  "describe",
  "query",
  "head",
  "options",
]);

/** First words of a summary that say the operation only reads. */
const SUMMARY_READS: ReadonlySet<string> = new Set([
  "get",
  "list",
  "search",
  "find",
  "fetch",
  "retrieve",
  "query",
  "lookup",
  "count",
  "validate",
  // Computing from what is sent changes nothing: `Calculate order`, `Estimate rates`, `Preview invoice`, `Parse address`.
  "calculate",
  "compute",
  "estimate",
  "preview",
  "parse",
]);

/** Words before a summary's verb that say how many, not what is done: `Batch retrieve catalog objects`. */
const HOW_MANY: ReadonlySet<string> = new Set(["batch", "bulk"]);

/**
 * The action an operation's summary names by its first word, else the first verb among its operationId's words
 * (`MemoService_DeleteMemo`, `PostPaymentIntentsIntentCancel`; `chat.postMessage` and `getSendStatus` name none); undefined when neither names one.
 */
export function operationAction(operation: Pick<OperationModel, "summary" | "operationId">): OperationAction | undefined {
  const all = words(operation.summary ?? "");
  const said = all.length > 1 && HOW_MANY.has(all[0] ?? "") ? all.slice(1) : all;
  const first = said[0];
  const named = first === undefined ? undefined : verbOf(first);
  if (named) return named;
  // A summary that begins by reading (`Search contacts`, `Get Contacts by Emails`, `Validate an email`) and names no
  // change besides (`Get or create a session`) reads, whatever its method.
  if (first !== undefined && SUMMARY_READS.has(first) && !said.some((word) => verbOf(word) !== undefined)) return "read";
  for (const word of words(operation.operationId ?? "")) {
    // `getSendStatus` and `listChanges` read: a read verb ends the search; a method name (`PostRefunds`) is passed over.
    if (READ_VERBS.has(word)) return undefined;
    const action = verbOf(word);
    if (action) return action;
  }
  return undefined;
}

/** A verb as written, or in its third person (`Terminates a call`, `Creates a customer`). */
function verbOf(word: string): OperationAction | undefined {
  return VERBS.get(word) ?? (word.endsWith("s") ? (VERBS.get(word.slice(0, -1)) ?? VERBS.get(word.slice(0, -2))) : undefined);
}
