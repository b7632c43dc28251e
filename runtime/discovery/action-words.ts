/**
 * The words people use for what APIs do, where a lexical database does not help: phrasal verbs (`hang up`, `loop in`)
 * and everyday slang (`nuke`, `text`). Query side only; the document's own words still count first.
 */

/** Phrasal verbs and idioms, rewritten into the words APIs use for them (the object between them stays). */
const PHRASES: readonly [RegExp, string][] = [
  // A particle after a pronoun object belongs to the verb: `write them off` is `write off them`.
  [/\b([a-z]+)\s+(it|them)\s+(off|out|away)\b/gi, "$1 $3 $2"],
  [/\bhang\s*up\b/gi, "hangup end"],
  [/\bpick\s+up\s+(?=(?:the\s+|an?\s+|this\s+|that\s+)?(?:incoming\s+|inbound\s+)?(?:call|phone))/gi, "answer "],
  [/\bloop\s+(.{1,60}?)\s+in\b/gi, "add follower $1"],
  [/\bloop\s+in\b/gi, "add follower"],
  [/\bbump\s+(.{1,60}?\s+)?up\b/gi, "increase update upgrade $1"],
  [/\bknock\s+(.{1,60}?\s+)?down\b/gi, "decrease reduce discount $1"],
  [/\bgive\s+(.{1,60}?\s+)?back\b/gi, "refund return $1"],
  [/\b(?:shut|switch|turn)\s+(.{1,60}?\s+)?off\b/gi, "disable deactivate stop $1"],
  [/\b(?:switch|turn)\s+(.{1,60}?\s+)?on\b/gi, "enable activate start $1"],
  [/\b(?:take|pull|kick)\s+(.{1,60}?\s+)?(?:off|out\s+of)\b/gi, "remove $1 from"],
  [/\bspin\s+(.{1,60}?\s+)?up\b/gi, "create $1"],
  [/\bsign\s+(.{1,60}?\s+)?up\b/gi, "create register $1"],
  [/\bset\s+(.{1,60}?\s+)?up\b/gi, "create configure $1"],
  [/\bget\s+rid\s+of\b/gi, "delete"],
  [/\bgive\s+(\w+\s+)?access\b/gi, "add member $1access"],
  // `drop a comment`, `drop me a line`: leave one, not delete it.
  [/\b(?:drop|leave|post)\s+(?:me\s+)?(?:a|an)\s+(comment|note|line|message|reply|review)\b/gi, "$1"],
  // A request that begins `email …` or `text …` sends one.
  [/^\s*e-?mail\b/i, "send mail email"],
  [/^\s*text\b/i, "send message text"],
  [/\bhow\s+(?:did|does|is|are|was|were)\s+(.{1,80}?\s+)?(?:do|doing|perform(?:ing)?)\b/gi, "stats metrics $1"],
  [/\bcheck\s+(?:if|whether)\b/gi, "validate verify check"],
  // `have the bot say…`: what the bot is to do is the request.
  [/^\s*(?:have|make|let|get)\s+(?:the\s+|our\s+|my\s+)?(?:bot|agent|assistant|system|it|them)\s+/i, ""],
  // What holds a task up is what it depends on.
  [/\b(?:holding\s+(.{0,40}?\s*)up|blocking|blocked\s+by)\b/gi, "dependency blocker $1"],
  [/\b(?:can't|cannot|can\s+not)\s+start\s+until\b/gi, "dependency depends on"],
  [/\b(?:subtask|child)\s+of\b/gi, "parent"],
  [/\bmark\s+(.{1,60}?\s+)?(?:as\s+)?(?:done|finished|complete)\b/gi, "complete update $1"],
  // `fix my typo in…`, `correct the address`: a request that begins by fixing something edits it.
  [/^\s*(fix|correct)\b/i, "$1 update edit"],
  // `mark invoice 12 as paid`: a change of its status to that state.
  [/\bmark\s+(.{1,60}?\s+)?as\s+(\w+)\s*(?=$|[,.;!?])/gi, "update status $1$2"],
  // `invoice 640 has been paid`: news of a state, to be recorded as its status.
  [/\b(?:has|have)\s+(?:now\s+|just\s+)?been\s+(\w+(?:ed|en)|paid|sent|done|lost|won)\s*(?=$|[,.;!?])/gi, "update status $1"],
  // `mark it rejected`: the same, the state a participle.
  [/\bmark\s+(it|them|this|that|these|those)\s+(\w+(?:ed|en)|paid|sent|done|lost|won)\s*(?=$|[,.;!?])/gi, "update status $1 $2"],
  // `repos with kubernetes in the name`: a search by name.
  [/\bwith\s+(.{1,40}?)\s+in\s+(?:the|its|their)\s+(name|title)s?\b/gi, "search $2 $1"],
  // Being told each time something happens is a webhook.
  [/\b(?:every|each|any)\s+time\b/gi, "whenever"],
  // Undoing a deletion restores what was deleted.
  [/\bundo\s+(?:the\s+|my\s+|that\s+)?(?:deletion|removal|delete)\s+of\b/gi, "restore undelete"],
  // What failed, and why: its errors, to read (`labels in batch 12 didn't generate` → show errors labels in batch 12…).
  [/^(.*?)\b(?:didn't|did\s+not|doesn't|does\s+not|won't|couldn't|failed\s+to|fails\s+to)\s+(\w+)/i, "show errors $1 failed $2"],
];

/** Single words people use for an API's action or thing: what they say → what APIs call it. */
export const SLANG: Readonly<Record<string, readonly string[]>> = {
  nuke: ["delete"],
  kill: ["cancel", "delete", "stop"],
  ditch: ["delete"],
  scrap: ["delete"],
  axe: ["delete"],
  wipe: ["delete"],
  trash: ["delete"],
  text: ["message", "sms"],
  sms: ["message"],
  ring: ["call", "dial"],
  dial: ["call"],
  phone: ["call"],
  ping: ["message", "notify"],
  clone: ["duplicate", "copy"],
  buy: ["order", "purchase"],
  purchase: ["order"],
  credit: ["balance"],
  finish: ["complete"],
  done: ["complete"],
  valid: ["validat", "verify"],
  connect: ["bridge", "link"],
  say: ["speak"],
  everything: ["global", "all"],
  everywhere: ["global", "all"],
  real: ["valid", "validat", "verify"],
};

/** Words an imperative's object begins with: `record it`, `link them`, `print that label`. */
const OBJECT_START = /^(?:it|them|that|this|these|those|the|a|an|my|our|his|her|their|all)$/i;

/**
 * The request with the clause that asks for something first: `Acme wired EUR 1,200 for invoice 5521, record it` asks
 * to record. A later clause asks when it begins with a verb (`isVerb`) or with a word and an object (`mark it`), and
 * the first clause does neither.
 */
export function askingClauseFirst(request: string, isVerb: (word: string) => boolean): string {
  // Not the comma of `1,200` nor the colon of `10:30`.
  const clauses = request.split(/\s*(?:(?<!\d)[,;:]|[,;:](?!\d)|\s[-–—]\s)\s*/);
  if (clauses.length < 2) return request;
  const asks = (clause: string) => {
    const [first = "", second = ""] = clause.split(/\s+/);
    return /^[a-z]+$/i.test(first) && (isVerb(first.toLowerCase()) || OBJECT_START.test(second));
  };
  if (asks(clauses[0] ?? "")) return request;
  const at = clauses.findIndex((clause, index) => index > 0 && asks(clause));
  if (at < 0) return request;
  return [clauses[at], ...clauses.filter((_, index) => index !== at)].join(", ");
}

/** The request with its phrasal verbs said in the words APIs use. */
export function plainActions(request: string): string {
  let text = request;
  for (const [pattern, replacement] of PHRASES) text = text.replace(pattern, replacement);
  return text;
}
