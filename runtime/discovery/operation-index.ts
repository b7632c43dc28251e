import { distance } from "fastest-levenshtein";
import MiniSearch from "minisearch";
import { words } from "../base/words.js";
import { plainActions, SLANG } from "./action-words.js";
import { HINTED, withoutValues } from "./request-values.js";

/** The searchable text of one operation. */
export interface SearchableOperation {
  id: number;
  path: string;
  method: string;
  operationId: string;
  summary: string;
  description: string;
  tags: string;
  parameters: string;
  /** The document marks it deprecated: it ranks after current operations that match as well. */
  deprecated?: boolean;
}

/**
 * Words a user may say for a document's own words (its normalised terms), from a lexical database at generation time:
 * `related` maps a said term to the document's terms it may mean; `verbs` are the terms that are verbs.
 */
export interface SearchLexicon {
  readonly related: Readonly<Record<string, readonly string[]>>;
  readonly verbs: readonly string[];
}

const MAX_QUERY_WORDS = 32;
const FIELDS = ["path", "operationId", "summary", "description", "tags", "parameters"] as const;
const BOOST = { operationId: 3, summary: 3, path: 2, tags: 1.5, parameters: 1, description: 0.7 };
/** Field boosts for the words a query means rather than says (synonyms): half of BOOST. */
const SYNONYM_BOOST = Object.fromEntries(Object.entries(BOOST).map(([field, boost]) => [field, boost / 2]));
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "the",
  "of",
  "for",
  "to",
  "in",
  "on",
  "by",
  "with",
  "or",
  "is",
  "are",
  "be",
  "this",
  "that",
  "it",
  "as",
  "at",
  "from",
  "api",
  "my",
]);
/** Long forms API names often abbreviate, folded to the short form. */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ["repository", "repo"],
  ["organization", "org"],
  ["organisation", "org"],
  ["configuration", "config"],
  ["application", "app"],
  ["environment", "env"],
  ["information", "info"],
  ["identifier", "id"],
  ["administrator", "admin"],
  ["authentication", "auth"],
  ["authorization", "auth"],
  ["message", "msg"],
  ["certificate", "cert"],
  ["variable", "var"],
]);

/**
 * What users say for what APIs name, query side only (normalised terms): `open`/`new`/`add` → create, `read`/`show`
 * → get, `remove` → delete, `edit` → update, `reply` → comment. The word itself still counts as much.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  open: ["create"],
  add: ["create"],
  make: ["create"],
  write: ["create"],
  post: ["create"],
  submit: ["create"],
  upload: ["create"],
  store: ["create"],
  register: ["create"],
  save: ["create"],
  read: ["get"],
  fetch: ["get"],
  show: ["get", "list"],
  view: ["get"],
  see: ["get", "list"],
  retrieve: ["get"],
  display: ["get"],
  look: ["get"],
  find: ["search", "get"],
  all: ["list"],
  remove: ["delete"],
  erase: ["delete"],
  drop: ["delete"],
  destroy: ["delete"],
  edit: ["update"],
  change: ["update"],
  modify: ["update"],
  rename: ["update"],
  close: ["update"],
  reply: ["comment", "create"],
  respond: ["comment", "create"],
  answer: ["comment", "create"],
  who: ["user", "member", "get"],
  every: ["list"],
  each: ["list"],
  current: ["authenticated"],
  pr: ["pull"],
  react: ["reaction"],
  emoji: ["reaction"],
  attach: ["attachment"],
  login: ["sign"],
  logon: ["sign"],
  signin: ["sign"],
  // What users call the things APIs name otherwise: kanban and ticket words, hosting words, billing words.
  ticket: ["issue", "card", "task"],
  column: ["list", "stage", "status"],
  workspace: ["organization", "team", "project"],
  team: ["organization", "group"],
  deadline: ["due"],
  history: ["event", "activity", "action", "log", "version"],
  activity: ["event", "action", "log", "feed"],
  audit: ["event", "log"],
  feedback: ["comment", "review"],
  recycle: ["trash"],
  bin: ["trash"],
  undelete: ["restore"],
  recover: ["restore"],
  vm: ["instance", "machine", "server"],
  server: ["instance", "machine", "host"],
  machine: ["instance", "server"],
  datacenter: ["region", "location", "zone"],
  plan: ["size", "tier", "subscription"],
  owe: ["balance", "invoice"],
  bill: ["invoice", "billing"],
  chargeback: ["dispute"],
  money: ["balance", "fund", "payout"],
  sell: ["product", "price"],
  // Kinds of file users name instead of the file.
  pdf: ["file"],
  doc: ["file", "document"],
  docx: ["file", "document"],
  spreadsheet: ["file", "document"],
  document: ["file"],
  photo: ["image", "picture", "file"],
  // Being told when something happens is a webhook (Box, Bitbucket and Vercel requests alike).
  notify: ["webhook", "hook", "notification"],
  whenever: ["webhook", "hook"],
  // Stopping something that runs: APIs say stop, cancel or abort.
  cancel: ["stop", "abort"],
  abort: ["cancel", "stop"],
};

/** Words a user says for themself: the API's "authenticated user" (checked before stop words drop `my`). */
const SELF = new Set(["me", "my", "myself", "mine", "i"]);

/** Verbs whose `me` is the one asking (`show me`, `give me`, `tell me`). */
const ASKING_VERBS = new Set(["show", "give", "tell", "get", "send", "find", "let", "help", "remind", "email", "notify"]);

/** Nouns users put first as verbs: `comment on an issue`, `tag an image`, `share a memo` create something. */
const LEADING_VERBS = new Set([
  "comment",
  "label",
  "tag",
  "share",
  "bookmark",
  "message",
  "invite",
  "pin",
  "fork",
  "star",
  "follow",
  "watch",
  "lock",
]);

let meanings: Map<string, string[]> | undefined;

/** What a word, as the user wrote it (lower-cased), means besides itself: SYNONYMS, normalised once. */
function meaningsOf(word: string): string[] {
  meanings ??= new Map(
    Object.entries({ ...SYNONYMS, ...SLANG }).map(([said, meant]) => [said, meant.map((item) => normalizeTerm(item) ?? item)]),
  );
  // A plural means what its singular does (`tickets`, `datacenters`).
  return meanings.get(word) ?? (word.length > 3 && word.endsWith("s") ? meanings.get(word.slice(0, -1)) : undefined) ?? [];
}

const AUTHENTICATED = "authenticat";
const CREATE = "creat";

/**
 * Ids in a request: a prefixed one (`ch_3MmlLrLkdIwHu7ix`, prefix captured), a UUID, or a token of twelve or more
 * letters and digits mixed.
 */
const OPAQUE_ID =
  /\b(?:([A-Za-z]{2,8})_(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}|(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{12,})\b/gi;

/**
 * A query's words, each with the terms it may match: itself (normalised, or the index's word it misspells) and what
 * users mean by it.
 */
function queryTermGroups(
  query: string,
  correct: (term: string, word: string) => string,
  related: (term: string) => readonly string[],
  known: (term: string) => boolean,
  isThing: (term: string) => boolean = () => false,
): string[][] {
  // An object's id says which, not what: `cus_Na6dX7aXxi11N4` is read as its prefix, a UUID or a long token as nothing.
  // An acronym's plural is the acronym (`VMs`, `IPs`): neither split (`V Ms`) nor taken for a name.
  // Values (phone numbers, e-mails, amounts, dates, quoted text) say which, not what: only their kind stays, as a hint.
  const { text: withoutIds, hints } = withoutValues(
    query.replace(OPAQUE_ID, (_id, prefix: string | undefined) => prefix ?? " ").replace(/\b([A-Z]{2,})s\b/g, "$1"),
    (word) => known(normalizeTerm(word) ?? word),
  );
  const rewritten = plainActions(withoutIds)
    .replace(/\blog\s*(?:in|on)\b/gi, "sign in")
    .replace(/\b(?:signed|logged)[\s-]+in\b/gi, "authenticated")
    .replace(/\bPRs?\b/g, "pull request")
    .replace(/\bto-?dos?\b/gi, "tasks")
    // `stop sharing`, `stop following`: undoing what the verb did.
    .replace(/\bstop\s+(\w+ing)\b/gi, "remove $1")
    // `what's in the folder`: its items.
    .replace(/\bwhat(?:'s|\s+is|\s+are)\s+(?:in|inside)\b/gi, "list items in");
  const said = tokenize(rewritten).slice(0, MAX_QUERY_WORDS);
  const names = namedWords(withoutIds);
  // A two-word verb the lexicon knows (`tear down`, `hand over`) is one word meant: both are read as its meaning.
  const joined = new Set<number>();
  const groups = said.flatMap((word, at) => {
    if (joined.has(at)) return [];
    const pair = phraseTerm(word, said[at + 1]);
    const [phraseMeaning, ...phraseOthers] = pair === undefined ? [] : related(pair);
    if (phraseMeaning !== undefined) {
      joined.add(at + 1);
      return [[phraseMeaning, ...phraseOthers, ...meaningsOf(phraseMeaning)]];
    }
    // Two words the API writes as one (`data center` → datacenter, `single send` → singlesend): the one word is said
    // when the first is not the API's own; else it is meant besides the two.
    const next = said[at + 1];
    const compound = next === undefined || word.length < 3 || next.length < 3 ? null : normalizeTerm(`${word}${next}`);
    const together = compound !== null && known(compound) ? compound : undefined;
    if (together !== undefined && !known(normalizeTerm(word) ?? "")) {
      joined.add(at + 1);
      return [[together]];
    }
    const lower = word.toLowerCase();
    // `show me…`, `give me…`: the one the answer goes to, not what it is about.
    if (lower === "me" && ASKING_VERBS.has(said[at - 1]?.toLowerCase() ?? "")) return [];
    // The API's words for the caller: the authenticated user, `me` in paths (`/auth/me`), the current user, the member.
    if (SELF.has(lower)) return [[AUTHENTICATED, "me", "current", "member"]];
    const term = normalizeTerm(word);
    if (term === null) return [];
    // A name of the user's own things counts as a word meant, not said: `the Reports folder` asks for a folder.
    if (names.has(lower)) return [["", term]];
    const relatives = related(term);
    const unknown = !known(term);
    // A word the API never uses stands for its own word, one of the things it acts on first: `subscribe` for Stripe's
    // subscriptions rather than its subscribers.
    const thing = unknown ? relatives.find(isThing) : undefined;
    const [stand, ...others] = thing === undefined ? relatives : [thing, ...relatives.filter((each) => each !== thing)];
    if (unknown && stand !== undefined) return [[stand, term, ...others, ...meaningsOf(lower)]];
    // A compound the API writes as two words (`datacenters` → data center, `webhook` → web hook): both are said.
    const parts = unknown ? compoundParts(lower, known) : undefined;
    if (parts !== undefined) return parts.map((part) => [part]);
    const meanings = meaningsOf(lower);
    // A word known to mean something (`start`, `archive`) is no misspelling of the API's (`star`, `archived`).
    const knownWord = meanings.length > 0 || relatives.length > 0 || changingVerbSet().has(term) || READING_VERBS.has(term);
    return [[knownWord ? term : correct(term, lower), ...meanings, ...relatives, ...(together ? [together] : [])]];
  });
  for (const hint of hints) groups.push(["", ...HINTED[hint]]);
  const first = groups[0];
  // `new issue` asks to create one; `any new voicemails?` does not.
  if (first !== undefined && said[0]?.toLowerCase() === "new") first.push(CREATE);
  if (first !== undefined && LEADING_VERBS.has(said[0]?.toLowerCase() ?? "") && groups.length > 1) first.push(CREATE);
  return groups;
}

/** The lexicon's key of two words said together (`tear down` → tear_down), when neither is a stop word. */
function phraseTerm(first: string, second: string | undefined): string | undefined {
  if (second === undefined) return undefined;
  const a = normalizeTerm(first);
  const b = normalizeTerm(second);
  return a && b ? `${a}_${b}` : undefined;
}

/**
 * The terms a query may match, in groups (one per word said: itself or its correction first, then what it means), for
 * an index kept elsewhere (a database) that tells which terms it knows and how it corrects a misspelt word.
 */
export function queryTerms(query: string, known: (term: string) => boolean, correct: (term: string, word: string) => string): string[][] {
  return queryTermGroups(query, correct, () => [], known);
}

/** A word the index lacks as two words it has (each of three letters or more), or undefined. */
function compoundParts(word: string, known: (term: string) => boolean): string[] | undefined {
  if (word.length < 7 || word.length > 24) return undefined;
  for (let cut = 3; cut <= word.length - 3; cut++) {
    const first = normalizeTerm(word.slice(0, cut));
    const second = normalizeTerm(word.slice(cut));
    if (first !== null && second !== null && known(first) && known(second)) return [first, second];
  }
  return undefined;
}

/**
 * The words of a request that name the user's own things rather than the API's: in double quotes or backticks,
 * capitalised in mid-sentence (`move it to Done`, but not `PDF`), or in a token with digits, `@` or a dot
 * (`web-01`, `jane@acme.com`, `contract.docx`). Lower-cased.
 */
function namedWords(query: string): Set<string> {
  const names = new Set<string>();
  const add = (text: string) => {
    for (const word of tokenize(text)) names.add(word.toLowerCase());
  };
  for (const match of query.matchAll(/["“`]([^"”`]{1,100})["”`]/g)) add(match[1] ?? "");
  const tokens = query.split(/\s+/).filter((token) => token !== "");
  tokens.forEach((token, index) => {
    const sentenceStart = index === 0 || /[.!?:]$/.test(tokens[index - 1] ?? "");
    if ((!sentenceStart && /^[A-Z][a-z]/.test(token)) || /[0-9@]|\w\.\w/.test(token)) add(token);
  });
  return names;
}

/** How many of the best text-score hits are re-ranked (a catalogue of many documents can match thousands). */
const MAX_RERANKED = 500;

/** What a deprecated operation weighs: it comes after the current ones that match about as well. */
const DEPRECATED_WEIGHT = 0.5;

/** Hits scoring under this share of the best one are cut off. */
const RELEVANCE_FLOOR = 0.05;

/** True when a name word is one edit from, or begins with, a word of four letters or more that the query says. */
function nearlySaid(term: string, said: ReadonlySet<string | undefined>): boolean {
  if (term.length < 4) return false;
  for (const word of said) {
    if (word === undefined || word.length < 4) continue;
    if (term.startsWith(word) || (Math.abs(term.length - word.length) <= 1 && distance(term, word) <= 1)) return true;
  }
  return false;
}

/** The HTTP methods that carry out what an action word asks for (normalised terms). */
/** What an action asks of an operation: its methods, and whether it acts on one item or on a collection. */
interface Intent {
  methods: ReadonlySet<string>;
  shape?: "item" | "collection";
}

/** The intents of action words (normalised terms). */
const ACTION_METHODS: ReadonlyMap<string, Intent> = new Map<string, Intent>([
  ["creat", { methods: new Set(["post", "put"]), shape: "collection" }],
  ["get", { methods: new Set(["get", "head"]), shape: "item" }],
  ["list", { methods: new Set(["get"]), shape: "collection" }],
  ["search", { methods: new Set(["get", "post"]) }],
  ["download", { methods: new Set(["get"]) }],
  ["updat", { methods: new Set(["patch", "put", "post"]), shape: "item" }],
  ["set", { methods: new Set(["put", "post", "patch"]) }],
  ["delet", { methods: new Set(["delete"]), shape: "item" }],
  ["cancel", { methods: new Set(["delete", "post"]) }],
]);

/**
 * Methods that make or change something: what a request asks for when it begins with any other verb (refund, reboot,
 * share, schedule). Deleting is asked for by its own words (delete, remove, cancel…), never by these.
 */
const CHANGING_METHODS: ReadonlySet<string> = new Set(["post", "put", "patch"]);

/** What a verb naming one of the API's things asks for: to make one, in its collection or at its action's path. */
const MAKING: Intent = { methods: new Set(["post", "put"]), shape: "collection" };

/** A question (`what labels…`, `who is on…`) asks to read. */
const READING: Intent = { methods: new Set(["get", "head"]) };
const QUESTION_WORDS = new Set(["what", "which", "who", "how", "where", "when", "do", "doe", "did", "have", "has", "can", "could"]);

/** Verbs of requests that read (normalised): a request beginning with one of these asks for a GET. */
const READING_VERBS = new Set([
  "get",
  "list",
  "show",
  "see",
  "view",
  "read",
  "fetch",
  "find",
  "search",
  "look",
  "check",
  "display",
  "tell",
  "give",
  "count",
  "retriev",
  "download",
  "browse",
  "what",
  "which",
  "who",
  "how",
  "where",
  "when",
  "do",
  "doe",
  "did",
  "have",
  "has",
  "can",
  "could",
]);

/** Everyday verbs of requests that change something, beyond create/update/delete. */
const CHANGING_VERB_WORDS = [
  "cancel",
  "activate",
  "deactivate",
  "suspend",
  "unsuspend",
  "expire",
  "watch",
  "unwatch",
  "increment",
  "decrement",
  "send",
  "refund",
  "archive",
  "move",
  "copy",
  "share",
  "invite",
  "reboot",
  "restart",
  "resize",
  "assign",
  "attach",
  "detach",
  "enable",
  "disable",
  "start",
  "stop",
  "approve",
  "reject",
  "void",
  "capture",
  "confirm",
  "pay",
  "finalize",
  "publish",
  "merge",
  "lock",
  "unlock",
  "restore",
  "transfer",
  "rotate",
  "reset",
  "revoke",
  "verify",
  "subscribe",
  "unsubscribe",
  "charge",
  "trash",
  "upload",
  "rename",
  "mark",
  "accept",
  "decline",
  "resend",
  "retry",
  "run",
  "trigger",
  "deploy",
  "rollback",
  "power",
  "shutdown",
  "snapshot",
  "tag",
  "untag",
  "pin",
  "unpin",
  "star",
  "unstar",
  "follow",
  "unfollow",
  "block",
  "unblock",
  "mute",
  "unmute",
  "close",
  "reopen",
  "resolve",
  "release",
  "install",
  "uninstall",
  "import",
  "sync",
  "convert",
  "duplicate",
  "schedule",
  "apply",
  "redeem",
  "link",
  "unlink",
  "join",
  "leave",
  "kick",
  "ban",
  "promote",
  "demote",
  "add",
  "set",
  "put",
  "make",
  "open",
  "post",
  "submit",
  "register",
  "remove",
  "delete",
  "drop",
  "clear",
  "purge",
  "reschedule",
  "postpone",
  "extend",
  "replace",
  "reassign",
  "resume",
  "pause",
  "end",
  "upgrade",
  "downgrade",
  "buy",
  "purchase",
  "order",
  "ring",
  "dial",
  "text",
  "email",
];
let changingVerbs: ReadonlySet<string> | undefined;

/** The everyday verbs that change something, normalised on first use. */
function changingVerbSet(): ReadonlySet<string> {
  changingVerbs ??= new Set(CHANGING_VERB_WORDS.map((verb) => normalizeTerm(verb) ?? verb));
  return changingVerbs;
}

/**
 * The methods the query's action asks for, said or meant; undefined when it names no action. A request that begins
 * with a verb that changes something (one of the everyday ones, or a verb of the API's own words) asks for a method
 * that changes something.
 */
function wantedMethods(
  groups: readonly string[][],
  verbs: ReadonlySet<string>,
  isObject: (term: string) => boolean,
  leading: string | undefined,
): Intent | undefined {
  const intentOf = (terms: readonly string[]) => terms.map((term) => ACTION_METHODS.get(term)).find((each) => each !== undefined);
  const first = groups[0]?.[0];
  // The first word's own action comes first, then a leading verb's: `register a webhook listening for…` creates.
  const saidFirst = intentOf([first ?? ""]);
  if (saidFirst !== undefined) return saidFirst;
  const changing = (term: string) => changingVerbSet().has(term) || verbs.has(term);
  // A verb the API lacks stands for its thing (`subscribe` for subscriptions): the verb was said, the thing is first.
  const standsForThing = leading !== undefined && leading !== first && changing(leading) && (groups[0] ?? []).some(isObject);
  // A request that begins with a verb that changes something asks for that, whatever later words mean
  // (`leave a comment saying looks good` does not ask to read); the verb's own meaning may say which change.
  if (first !== undefined && !READING_VERBS.has(first) && (changing(first) || standsForThing)) {
    const meant = intentOf(groups[0]?.slice(1) ?? []);
    if (meant !== undefined) return meant;
    // A verb that names one of the API's things makes one (`refund ch_1` → POST /refunds, `send the invoice` → …/send).
    return (groups[0] ?? []).some(isObject) ? MAKING : { methods: CHANGING_METHODS };
  }
  const said = intentOf(groups.map((group) => group[0] ?? ""));
  if (said !== undefined) return said;
  const meant = intentOf(groups.flatMap((group) => group.slice(1)));
  if (meant !== undefined) return meant;
  if (first === undefined) return undefined;
  return READING_VERBS.has(first) && QUESTION_WORDS.has(first) ? READING : undefined;
}

/**
 * How an operation's method and path agree with the action asked for (a create acts on a collection, an update on
 * one item); a query without an action is most often a read.
 */
function methodFactor(method: string, path: string, wanted: Intent | undefined, plural: boolean): number {
  const item = /\}\/?$/.test(path);
  // A request that names no action most often reads (`voicemails`, `my meetings`), a plural a collection.
  // Nor does it ask to delete: that takes its own words (delete, remove, cancel…).
  if (wanted === undefined) return method === "delete" ? 0.6 : method !== "get" ? 0.85 : plural && !item ? 1.35 : 1.2;
  if (!wanted.methods.has(method)) return 0.6;
  if (wanted.shape === undefined) return plural && method === "get" && !item ? 1.7 : 1.5;
  return (wanted.shape === "item") === item ? 1.6 : 1.4;
}

/** Whether a request names things in the plural after its first word (`my upcoming meetings`): it asks for a list. */
function saysPlural(query: string): boolean {
  return tokenize(query)
    .slice(1, MAX_QUERY_WORDS)
    .some((word) => {
      const lower = word.toLowerCase();
      if (lower.length < 5 || !lower.endsWith("s") || /(ss|us|is)$/.test(lower)) return false;
      const term = normalizeTerm(lower);
      return term !== null && term === normalizeTerm(lower.slice(0, -1));
    });
}

/** The term of a path's last named segment: what its operation reads or changes (`/cards/{id}/attachments` → attachment). */
function objectOf(path: string): string | undefined {
  const named = path.split("/").filter((segment) => segment !== "" && !segment.includes("{"));
  const last = tokenize(named.at(-1) ?? "").at(-1);
  return last === undefined ? undefined : (normalizeTerm(last) ?? undefined);
}

/** The terms of the first words of an operation's summary and operationId: its verb, where it names one. */
function actionsOf(operation: SearchableOperation): ReadonlySet<string> {
  const first = (text: string) => {
    const word = tokenize(text)[0];
    return word === undefined ? undefined : (normalizeTerm(word) ?? undefined);
  };
  const operationId = withoutNamespace(operation.operationId.split(" ").at(-1) ?? "");
  return new Set([first(operation.summary), first(operationId)].filter((term): term is string => term !== undefined));
}

/** How an operation's verb agrees with the request's first word: as said (`upload` → Upload file), or as meant. */
function actionFactor(actions: ReadonlySet<string> | undefined, first: readonly string[] | undefined): number {
  if (actions === undefined || first === undefined || first.length === 0) return 1;
  if (actions.has(first[0] ?? "")) return 1.5;
  return first.slice(1).some((term) => actions.has(term)) ? 1.25 : 1;
}

/** The weight of an operation whose object is the thing asked for (held-out 0.52 → 0.55 at rank 1, no set lower). */
const HEAD_OBJECT = 2;
/** The weight of an operation whose object is what the thing asked for means (`ticket` → issue). */
const HEAD_OBJECT_MEANT = 1.75;

/** Words that say how many or whose, not what: the thing asked for is the word after them (`list all customers`). */
const DETERMINERS = new Set(["all", "every", "each", "any", "some", "both", "our", "your", "their", "these", "those"]);

/**
 * The thing a request asks for, with what it means: its first word, or the next when the first is a verb (`list the
 * tasks in a project` → task).
 */
function thingAsked(groups: readonly string[][], verbs: ReadonlySet<string>): readonly string[] | undefined {
  const leading = groups[0]?.[0];
  const verbFirst =
    leading !== undefined &&
    (ACTION_METHODS.has(leading) || READING_VERBS.has(leading) || changingVerbSet().has(leading) || verbs.has(leading));
  return groups.slice(verbFirst ? 1 : 0).find((group) => !DETERMINERS.has(group[0] ?? ""));
}

/** A change to one field of a thing (`change the priority of this ticket`): the thing's word, read from the request. */
const FIELD_OF_THING =
  /\b(?:change|update|set|edit|modify|rename|replace)\s+(?:the\s+|my\s+|its\s+)?\w+(?:\s+and\s+\w+)?\s+(?:of|on|for)\s+(?:this|that|the|my|our|a|an)\s+(\w+)/i;

/** The thing whose field a request changes, as one of its groups of terms; undefined when it changes no field of one. */
function fieldOwner(query: string, groups: readonly string[][]): readonly string[] | undefined {
  const word = FIELD_OF_THING.exec(query)?.[1];
  const term = word === undefined ? null : normalizeTerm(word);
  return term === null ? undefined : groups.find((group) => group.includes(term));
}

/** How an operation's object agrees with the query: the thing asked for, another word as said, or as meant (`ticket` for a card). */
function objectFactor(object: string | undefined, groups: readonly string[][], thing: readonly string[] | undefined): number {
  if (object === undefined) return 1;
  if (object === thing?.[0]) return HEAD_OBJECT;
  if (thing?.includes(object)) return HEAD_OBJECT_MEANT;
  if (groups.some((group) => group[0] === object)) return 1.5;
  return groups.some((group) => group.includes(object)) ? 1.2 : 1;
}

/** How much less an operation weighs for each thing its path goes through that the request does not name. */
const UNNAMED_PARENT = 0.85;

/**
 * Fewer things unnamed first: `cancel subscription sub_1` wants /subscriptions/{id} before
 * /customers/{customer}/subscriptions/{id}. Version and prefix segments (`v1`, `api`, `rest`) count for nothing.
 */
function parentsFactor(path: string, terms: ReadonlySet<string>): number {
  const parents = path
    .split("/")
    .filter((segment) => segment !== "" && !segment.includes("{"))
    .slice(0, -1);
  let unnamed = 0;
  for (const segment of parents) {
    if (/^(?:v\d+|\d+|api|rest)$/i.test(segment)) continue;
    if (!tokenize(segment).some((word) => terms.has(normalizeTerm(word) ?? ""))) unnamed++;
  }
  return UNNAMED_PARENT ** unnamed;
}

/** Splits text into words at separators and camelCase boundaries (`listRepoIssues` → list, repo, issues). */
export function tokenize(text: string): string[] {
  return words(text);
}

/** Words whose `-ing` or `-ed` ending is not a suffix. */
const NOT_INFLECTED = new Set([
  "string",
  "thing",
  "setting",
  "spring",
  "nothing",
  "something",
  "everything",
  "anything",
  "during",
  "ceiling",
  "sibling",
  "morning",
  "evening",
  "embed",
  "hundred",
]);

/**
 * Light English stemming, the same on both sides of the index: `-ing` and `-ed` come off (a doubled final consonant
 * with them: running → run), then a final `-e` (create, created, creating → creat).
 */
function stem(word: string): string {
  let base = word;
  if (!NOT_INFLECTED.has(word)) {
    if (word.length >= 6 && word.endsWith("ing")) base = word.slice(0, -3);
    else if (word.length >= 6 && word.endsWith("ed") && !word.endsWith("eed")) base = word.slice(0, -2);
    if (base !== word && /([bgmnprt])\1$/.test(base)) base = base.slice(0, -1);
  }
  return base.length >= 5 && base.endsWith("e") ? base.slice(0, -1) : base;
}

/** Lower-cases, drops stop words, folds simple English plurals, common abbreviations and `-ing`/`-ed`/`-e` endings. */
export function normalizeTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower)) return null;
  let singular = lower;
  if (singular.length > 4 && singular.endsWith("ies")) singular = `${singular.slice(0, -3)}y`;
  else if (singular.length > 4 && /(ches|shes|sses|xes)$/.test(singular)) singular = singular.slice(0, -2);
  else if (singular.length > 3 && singular.endsWith("s") && !/(ss|us|is)$/.test(singular)) singular = singular.slice(0, -1);
  // The tables are Maps: a document's `constructor` or `__proto__` is a word, not a property of an object.
  return ABBREVIATIONS.get(singular) ?? stem(singular);
}

/** An operationId without a gRPC-style service namespace (`MemoService_CreateMemo` → `CreateMemo`): it names no action. */
function withoutNamespace(operationId: string): string {
  return operationId.replace(/(^|\s)[A-Za-z0-9]*Service_/g, "$1");
}

function termSet(text: string): Set<string> {
  return new Set(
    tokenize(text)
      .map(normalizeTerm)
      .filter((term): term is string => term !== null),
  );
}

/** How much of a description stands for an operation whose summary only repeats its name. */
const GIST_CHARS = 300;
/** Where the gist is among an operation's names (after its operationId and summary), and what a match in it weighs. */
const GIST_NAME = 2;
const GIST_WEIGHT = 0.75;

/**
 * What an operation does in the words of its description, where its summary says nothing its name does not (Twilio's
 * "Update call": "Initiates a call redirect or terminates a call"): the description's first sentences; else nothing.
 */
function gistOf(operation: SearchableOperation): string {
  const name = termSet(withoutNamespace(operation.operationId));
  if ([...termSet(operation.summary)].some((term) => !name.has(term))) return "";
  const text = operation.description.trim();
  if (text === "" || text === operation.summary.trim()) return "";
  // Whole sentences within the limit, at least the first part of one.
  const cut = text.slice(0, GIST_CHARS);
  const ends = [...cut.matchAll(/[.!?](?=\s|$)/g)];
  const last = ends.at(-1)?.index;
  return last === undefined ? cut : cut.slice(0, last + 1);
}

const INDEX_OPTIONS = { fields: [...FIELDS], idField: "id", tokenize, processTerm: normalizeTerm };

/**
 * A BM25 index over the operations of one document (MiniSearch), with prefix and light fuzzy matching, re-ranked
 * by how completely the query and an operation's own name or summary cover each other, so `create a gist` puts
 * `gists/create` before `gists/create-comment`.
 */
export class OperationSearchIndex {
  private readonly index: MiniSearch<SearchableOperation>;
  private readonly names = new Map<number, Set<string>[]>();
  private readonly methods = new Map<number, string>();
  private readonly paths = new Map<number, string>();
  /** Words of the indexed text as written (lower-cased) → their normalised term, by length, to correct misspelt queries. */
  private readonly vocabulary = new Map<number, Map<string, string>>();
  private readonly terms = new Set<string>();
  private readonly verbs: ReadonlySet<string>;
  /** What each operation acts on: the term of its path's last named segment (`/boards/{id}/cards` → card). */
  private readonly objects = new Map<number, string | undefined>();
  /** How many operations act on each object term. */
  private readonly objectCounts = new Map<string, number>();
  /** The operations the document marks deprecated. */
  private readonly deprecated = new Set<number>();
  /** What each operation does, by the first word of its summary and of its operationId (`Create folder` → creat). */
  private readonly actions = new Map<number, ReadonlySet<string>>();

  /**
   * Indexes the operations, or loads `stored` (from `serialize()` over the same operations) without re-indexing; the
   * operations then need only their id, operationId and summary.
   */
  constructor(
    operations: readonly SearchableOperation[],
    stored?: string,
    private readonly lexicon: SearchLexicon = { related: {}, verbs: [] },
  ) {
    this.verbs = new Set(lexicon.verbs);
    if (stored === undefined) {
      this.index = new MiniSearch<SearchableOperation>(INDEX_OPTIONS);
      this.index.addAll(operations);
    } else {
      this.index = MiniSearch.loadJSON<SearchableOperation>(stored, INDEX_OPTIONS);
    }
    this.remember(operations);
  }

  /** Adds operations (ids not in the index yet): a catalogue grows as documents load. */
  add(operations: readonly SearchableOperation[]): void {
    this.index.addAll(operations);
    this.remember(operations);
  }

  /** Removes operations by id (a document replaced or dropped); their words stay known for spelling correction. */
  remove(ids: readonly number[]): void {
    for (const id of ids) {
      if (!this.methods.has(id)) continue;
      this.index.discard(id);
      this.names.delete(id);
      this.methods.delete(id);
      this.paths.delete(id);
      this.count(this.objects.get(id), -1);
      this.objects.delete(id);
      this.deprecated.delete(id);
      this.actions.delete(id);
    }
  }

  private remember(operations: readonly SearchableOperation[]): void {
    for (const operation of operations) {
      // Where the summary only repeats the name, the description's first sentences name the operation too.
      const gist = gistOf(operation);
      this.names.set(operation.id, [
        termSet(withoutNamespace(operation.operationId)),
        termSet(operation.summary),
        ...(gist === "" ? [] : [termSet(gist)]),
      ]);
      this.methods.set(operation.id, operation.method.toLowerCase());
      this.paths.set(operation.id, operation.path);
      const object = objectOf(operation.path);
      this.objects.set(operation.id, object);
      this.count(object, 1);
      this.actions.set(operation.id, actionsOf(operation));
      if (operation.deprecated) this.deprecated.add(operation.id);
      for (const field of FIELDS) {
        for (const word of tokenize(operation[field])) {
          const term = normalizeTerm(word);
          if (term === null) continue;
          this.terms.add(term);
          if (word.length < 4 || word.length > 24) continue;
          const sameLength = this.vocabulary.get(word.length) ?? new Map<string, string>();
          this.vocabulary.set(word.length, sameLength);
          sameLength.set(word, term);
        }
      }
    }
  }

  /** The index as JSON text, for the constructor's `stored`. */
  serialize(): string {
    return JSON.stringify(this.index);
  }

  /** Operation ids matching a query, best first, ties broken by document order; `within` keeps only some operations. */
  search(query: string, within?: (id: number) => boolean): { id: number; score: number }[] {
    // Cost bounds: the first 32 words, prefix matching up to 32 characters, typo tolerance from 4 to 24 (1 to 3 edits).
    const { related } = this.lexicon;
    const groups = queryTermGroups(
      query,
      (term, word) => this.corrected(term, word),
      (term) => (Object.hasOwn(related, term) ? (related[term] ?? []) : []),
      (term) => this.terms.has(term),
      (term) => this.objectCounts.has(term),
    );
    const meansSomething = (term: string) => changingVerbSet().has(term) || READING_VERBS.has(term) || Object.hasOwn(related, term);
    const said = groups.map((group) => group[0] ?? "").join(" ");
    const meant = [...new Set(groups.flatMap((group) => group.slice(1)))].join(" ");
    // What the user said counts fully, what it means less: `list open pull requests` still wants pulls/list first.
    const results = this.index.search(
      { combineWith: "OR", queries: [{ queries: [said] }, { queries: [meant], boost: SYNONYM_BOOST }] },
      {
        boost: BOOST,
        combineWith: "OR",
        // The terms are normalised already (and an expansion such as `authenticated` must not be dropped).
        processTerm: (term) => term,
        // Prefixes reach other forms (protect → protection); typos are looked for only in words the index lacks: a
        // fuzzy walk over the vocabulary is the costly part, and a catalogue of many documents makes it large.
        prefix: (term) => term.length >= 3 && term.length <= 32,
        // Nor in a word known to mean something (`start` is no misspelling of `star`).
        fuzzy: (term) =>
          this.terms.has(term) || term.length < 4 || term.length > 24 || meansSomething(term) ? false : term.length < 8 ? 1 : 0.2,
        maxFuzzy: 3,
        weights: { fuzzy: 0.3, prefix: 0.5 },
        ...(within ? { filter: (result: { id: unknown }) => within(Number(result.id)) } : {}),
      },
    );
    const leading = normalizeTerm(tokenize(query)[0] ?? "") ?? undefined;
    const wanted = wantedMethods(groups, this.verbs, (term) => this.objectCounts.has(term), leading);
    const plural = saysPlural(query);
    const terms = new Set(groups.flat());
    // A verb that makes one of the API's things names the thing (`watch this issue` makes a watcher).
    const verb = groups[0];
    const made = wanted?.methods.has("post") && verb?.some((term) => this.objectCounts.has(term)) ? verb : undefined;
    const thing = fieldOwner(query, groups) ?? made ?? thingAsked(groups, this.verbs);
    // A hit that matched only by typo tolerance or prefix is weak: it is dropped when some hit matched a word itself.
    const exact = results.filter((result) => result.terms.some((term) => terms.has(term)));
    // Re-ranking is bounded: only the best hits by text score can reach the top after it.
    const ranked = (exact.length > 0 ? exact : results)
      .slice(0, MAX_RERANKED)
      .map((result) => {
        const id = Number(result.id);
        const factors =
          (1 + 4 * this.coverage(id, groups)) *
          methodFactor(this.methods.get(id) ?? "", this.paths.get(id) ?? "", wanted, plural) *
          objectFactor(this.objects.get(id), groups, thing) *
          actionFactor(this.actions.get(id), groups[0]) *
          parentsFactor(this.paths.get(id) ?? "", terms) *
          (this.deprecated.has(id) ? DEPRECATED_WEIGHT : 1);
        return { id, score: Math.sqrt(result.score) * factors };
      })
      .sort((a, b) => b.score - a.score || a.id - b.id);
    // The relevance cut-off: far weaker hits than the best one drop out.
    const floor = (ranked[0]?.score ?? 0) * RELEVANCE_FLOOR;
    return ranked.filter((hit) => hit.score >= floor);
  }

  /** Counts an operation's object in or out. */
  private count(object: string | undefined, by: 1 | -1): void {
    if (object === undefined) return;
    const count = (this.objectCounts.get(object) ?? 0) + by;
    if (count > 0) this.objectCounts.set(object, count);
    else this.objectCounts.delete(object);
  }

  /** A query term the index has, else the term of the indexed word one edit (two from eight letters) from what was typed. */
  private corrected(term: string, word: string): string {
    if (this.terms.has(term) || word.length < 4 || word.length > 24) return term;
    const allowed = word.length >= 8 ? 2 : 1;
    let best: string | undefined;
    let bestDistance = allowed + 1;
    for (let length = word.length - allowed; length <= word.length + allowed; length++) {
      for (const [known, knownTerm] of this.vocabulary.get(length) ?? []) {
        const edits = distance(known, word);
        if (edits < bestDistance) {
          best = knownTerm;
          bestDistance = edits;
        }
      }
    }
    return best ?? term;
  }

  /**
   * The best, over operationId, summary and gist, of (share of the name matched) × (share of the query's words
   * matched), a word matching by itself or by what it means.
   */
  private coverage(id: number, groups: readonly string[][]): number {
    if (groups.length === 0) return 0;
    const said = new Set(groups.map((group) => group[0]));
    const meant = new Set(groups.flatMap((group) => group.slice(1)));
    // A word matched by what it means counts half as much as one matched as said.
    const exactWeight = (term: string) => (said.has(term) ? 1 : meant.has(term) ? 0.5 : 0);
    // A name word the query misspelt (one edit) or began counts half as much as the word said.
    const weight = (term: string) => exactWeight(term) || (nearlySaid(term, said) ? 0.5 : 0);
    let best = 0;
    for (const [at, name] of (this.names.get(id) ?? []).entries()) {
      if (name.size === 0) continue;
      // A match in the description's words counts less than one in the operation's own name or summary.
      const scale = at === GIST_NAME ? GIST_WEIGHT : 1;
      let matchedName = 0;
      for (const term of name) matchedName += weight(term);
      let matchedQuery = 0;
      for (const group of groups) matchedQuery += Math.max(0, ...group.map((term) => (name.has(term) ? weight(term) : 0)));
      best = Math.max(best, scale * (matchedName / name.size) * (matchedQuery / groups.length));
    }
    return best;
  }
}
