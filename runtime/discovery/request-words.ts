import { askingClauseFirst, plainActions, SLANG } from "./action-words.js";
import { changingVerbSet, PARTICLES, READING_VERBS } from "./request-intent.js";
import { HINTED, withoutValues } from "./request-values.js";
import { MAX_QUERY_WORDS, normalizeTerm, tokenize } from "./terms.js";

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
  newest: ["latest", "recent"],
  recent: ["latest"],
  latest: ["recent"],
  last: ["latest", "recent"],
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
  // A webhook is a subscription to an API's events, with a URL to call back.
  webhook: ["hook", "subscription", "callback"],
  // Where a thing is: how far it has got, or where it has got to.
  where: ["status", "progress", "track", "location"],
  // Stopping something that runs: APIs say stop, cancel or abort.
  cancel: ["stop", "abort"],
  abort: ["cancel", "stop"],
};

/** A verb that undoes another: `un` and a verb, not an adjective (`unpaid`, `unread`, `unused`, `unusual`). */
const UNDOING = /^un(?![a-z]*(?:ed|id|en|ing|able|ible|ful|ous|al|ly|y|read|sent|seen|own)$)([a-z]{4,})$/;
/** What undoing asks of an API: to remove. */
const UNDO_MEANS = ["remov", "delet"];

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
  "record",
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
const NEW = "new";

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
export function queryTermGroups(
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
  const isVerb = (word: string) => {
    const term = normalizeTerm(word) ?? "";
    return changingVerbSet().has(term) || READING_VERBS.has(term) || Object.hasOwn(SYNONYMS, word);
  };
  const rewritten = plainActions(askingClauseFirst(withoutIds, isVerb))
    .replace(/\blog\s*(?:in|on)\b/gi, "sign in")
    .replace(/\b(?:signed|logged)[\s-]+in\b/gi, "authenticated")
    .replace(/\bPRs?\b/g, "pull request")
    .replace(/\bto-?dos?\b/gi, "tasks")
    // `every month`: a schedule, not every item of a list.
    .replace(/\b(?:every|each)\s+(?:other\s+)?(?:day|week|fortnight|month|quarter|year|hour|minute)s?\b/gi, "recurring")
    // `stop sharing`, `stop watching`: undoing what the verb did (unshare, unwatch), or stopping it.
    .replace(/\bstop\s+(\w+ing)\b/gi, "remove un$1 $1 stop")
    // `what's in the folder`: its items.
    .replace(/\bwhat(?:'s|\s+is|\s+are)\s+(?:in|inside)\b/gi, "list items in");
  const said = tokenize(rewritten).slice(0, MAX_QUERY_WORDS);
  const names = namedWords(withoutIds);
  const whenever = said.findIndex((word) => word.toLowerCase() === "whenever");
  const eventFrom = whenever < 0 ? said.length : whenever;
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
    // What happens `whenever …` names the event a webhook is for, not the operation asked for.
    if (at > eventFrom) return [["", term]];
    const relatives = related(term);
    const unknown = !known(term);
    // An unknown verb undoing another (`unmatch the payments`, `unarchive`) asks to remove what the other made.
    const undone = at === 0 && unknown && relatives.length === 0 && meaningsOf(lower).length === 0 ? UNDOING.exec(lower)?.[1] : undefined;
    if (undone !== undefined) return [[term, ...UNDO_MEANS, ...[normalizeTerm(undone) ?? []].flat()]];
    // A word the API never uses stands for its own word, one of the things it acts on first: `subscribe` for Stripe's
    // subscriptions rather than its subscribers.
    const thing = unknown ? relatives.find(isThing) : undefined;
    const [stand, ...others] = thing === undefined ? relatives : [thing, ...relatives.filter((each) => each !== thing)];
    if (unknown && stand !== undefined) return [[stand, term, ...others, ...meaningsOf(lower)]];
    // A compound the API writes as two words (`datacenters` → data center, `webhook` → web hook): both are said.
    const parts = unknown ? compoundParts(lower, known) : undefined;
    if (parts !== undefined) return parts.map((part) => [part]);
    // A verb with a particle the lexicon does not know as one (`write off`, `zip up`) means something else than the
    // verb alone: not what users mean by the verb (`write` → create).
    const meanings = PARTICLES.has(said[at + 1]?.toLowerCase() ?? "") ? [] : meaningsOf(lower);
    // A word known to mean something (`start`, `archive`) is no misspelling of the API's (`star`, `archived`).
    const knownWord = meanings.length > 0 || relatives.length > 0 || changingVerbSet().has(term) || READING_VERBS.has(term);
    return [[knownWord ? term : correct(term, lower), ...meanings, ...relatives, ...(together ? [together] : [])]];
  });
  for (const hint of hints) groups.push(["", ...HINTED[hint]]);
  const first = groups[0];
  // `new issue` asks to create one; `any new voicemails?` does not.
  if (first !== undefined && said[0]?.toLowerCase() === "new") first.push(CREATE);
  if (first !== undefined && LEADING_VERBS.has(said[0]?.toLowerCase() ?? "") && groups.length > 1) first.push(CREATE);
  // With a verb that makes (`add a new customer`), `new` says nothing more.
  if (groups.some((group) => group[0] !== NEW && group.includes(CREATE)))
    return groups.filter((group) => group[0] !== NEW || group.includes(CREATE));
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
