import type { SearchableOperation } from "./searchable.js";
import { MAX_QUERY_WORDS, normalizeTerm, tokenize, withoutNamespace } from "./terms.js";

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

/** Terms a caller knows to be of a kind (the document's verbs): only asked whether it has one. */
export type Terms = Pick<ReadonlySet<string>, "has">;

/** Particles that make a phrasal verb of the verb before them (`write off`, `hand the folders over`). */
export const PARTICLES: ReadonlySet<string> = new Set(["off", "up", "down", "out", "away", "back", "over"]);

/** How many words may stand between a verb and its particle (`hand all his folders over`). */
const PARTICLE_REACH = 4;

/** A question (`what labels…`, `who is on…`) asks to read. */
const READING: Intent = { methods: new Set(["get", "head"]) };
/** Words that open a question about things, not a request to act (`how do I…` is asked by its verb). */
const WH_WORDS = new Set(["what", "which", "who", "where", "when", "why", "how"]);
const QUESTION_WORDS = new Set(["what", "which", "who", "how", "where", "when", "do", "doe", "did", "have", "has", "can", "could"]);

/** Verbs of requests that read (normalised): a request beginning with one of these asks for a GET. */
export const READING_VERBS = new Set([
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
  "notify",
];
let changingVerbs: ReadonlySet<string> | undefined;

/** The everyday verbs that change something, normalised on first use. */
export function changingVerbSet(): ReadonlySet<string> {
  changingVerbs ??= new Set(CHANGING_VERB_WORDS.map((verb) => normalizeTerm(verb) ?? verb));
  return changingVerbs;
}

/**
 * The methods the query's action asks for, said or meant; undefined when it names no action. A request that begins
 * with a verb that changes something (one of the everyday ones, or a verb of the API's own words) asks for a method
 * that changes something.
 */
export function wantedMethods(
  groups: readonly string[][],
  verbs: Terms,
  isObject: (term: string) => boolean,
  leading: string | undefined,
): Intent | undefined {
  const intentOf = (terms: readonly string[]) => terms.map((term) => ACTION_METHODS.get(term)).find((each) => each !== undefined);
  const first = groups[0]?.[0];
  // The first word's own action comes first, then a leading verb's: `register a webhook listening for…` creates.
  const saidFirst = intentOf([first ?? ""]);
  if (saidFirst !== undefined) return saidFirst;
  // A word the API lacks with a particle after its object is a phrasal verb, which acts: `hand all his folders over`.
  const phrasal = (term: string) =>
    term === first && !isObject(term) && groups.slice(1, 1 + PARTICLE_REACH).some((group) => PARTICLES.has(group[0] ?? ""));
  const changing = (term: string) => changingVerbSet().has(term) || verbs.has(term) || phrasal(term);
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
  // A question about things (`what PRs are still open?`) reads them, whatever its later words may mean.
  if (first !== undefined && WH_WORDS.has(first) && !(meant?.methods.has("get") ?? false)) return READING;
  if (meant !== undefined) return meant;
  if (first === undefined) return undefined;
  return READING_VERBS.has(first) && QUESTION_WORDS.has(first) ? READING : undefined;
}

/**
 * How an operation's method and path agree with the action asked for (a create acts on a collection, an update on
 * one item); a query without an action is most often a read.
 */
export function methodFactor(method: string, path: string, wanted: Intent | undefined, plural: boolean): number {
  const item = /\}\/?$/.test(path);
  // A request that names no action most often reads (`voicemails`, `my meetings`), a plural a collection.
  // Nor does it ask to delete: that takes its own words (delete, remove, cancel…).
  if (wanted === undefined) return method === "delete" ? 0.6 : method !== "get" ? 0.85 : plural && !item ? 1.35 : 1.2;
  if (!wanted.methods.has(method)) return 0.6;
  if (wanted.shape === undefined) return plural && method === "get" && !item ? 1.7 : 1.5;
  return (wanted.shape === "item") === item ? 1.6 : 1.4;
}

/** Whether a request names things in the plural after its first word (`my upcoming meetings`): it asks for a list. */
export function saysPlural(query: string): boolean {
  return tokenize(query).slice(1, MAX_QUERY_WORDS).some(isPlural);
}

/** Whether a word is a noun's plural (`meetings`, `labels`; not `status` or `access`). */
export function isPlural(word: string): boolean {
  const lower = word.toLowerCase();
  if (lower.length < 5 || !lower.endsWith("s") || /(ss|us|is)$/.test(lower)) return false;
  const term = normalizeTerm(lower);
  return term !== null && term === normalizeTerm(lower.slice(0, -1));
}

/** The term of a path's last named segment: what its operation reads or changes (`/cards/{id}/attachments` → attachment). */
export function objectOf(path: string): string | undefined {
  const named = path.split("/").filter((segment) => segment !== "" && !segment.includes("{"));
  const last = tokenize(named.at(-1) ?? "").at(-1);
  return last === undefined ? undefined : (normalizeTerm(last) ?? undefined);
}

/** What a state's path changes the state of: `/projects/{id}/status` → project; undefined for other paths. */
export function stateOwnerOf(path: string): string | undefined {
  const named = path.split("/").filter((segment) => segment !== "" && !segment.includes("{"));
  if (!/^(?:status|state)$/i.test(named.at(-1) ?? "")) return undefined;
  return objectOf(`/${named.slice(0, -1).join("/")}`);
}

/** The terms of the first words of an operation's summary and operationId: its verb, where it names one. */
export function actionsOf(operation: SearchableOperation): ReadonlySet<string> {
  const first = (text: string) => {
    const word = tokenize(text)[0];
    return word === undefined ? undefined : (normalizeTerm(word) ?? undefined);
  };
  const operationId = withoutNamespace(operation.operationId.split(" ").at(-1) ?? "");
  return new Set([first(operation.summary), first(operationId)].filter((term): term is string => term !== undefined));
}

/** How an operation's verb agrees with the request's first word: as said (`upload` → Upload file), or as meant. */
export function actionFactor(actions: ReadonlySet<string> | undefined, first: readonly string[] | undefined): number {
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
export function thingAsked(groups: readonly string[][], verbs: Terms): readonly string[] | undefined {
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
export function fieldOwner(query: string, groups: readonly string[][]): readonly string[] | undefined {
  const word = FIELD_OF_THING.exec(query)?.[1];
  const term = word === undefined ? null : normalizeTerm(word);
  return term === null ? undefined : groups.find((group) => group.includes(term));
}

/** How an operation's object agrees with the query: the thing asked for, another word as said, or as meant (`ticket` for a card). */
export function objectFactor(object: string | undefined, groups: readonly string[][], thing: readonly string[] | undefined): number {
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
export function parentsFactor(path: string, terms: ReadonlySet<string>): number {
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
