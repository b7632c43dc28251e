import { plainLine } from "../base/plain-line.js";
import { excerpt } from "../base/suggest.js";

/**
 * One part of an API as the search tool names it: a tag, what its description says, how many operations it has, and
 * its reach: those operations and the others whose paths name its thing (`/files/{id}/comments` names Files).
 */
export interface ApiPart {
  readonly tag: string;
  readonly note: string;
  readonly operations: number;
  readonly reach: number;
  /** Which operations it holds: their places in the order of `tags`. */
  readonly members: readonly number[];
}

/** The longest note a part keeps: the first sentence of its tag's description, cut. */
const NOTE_LENGTH = 90;
/** The most characters the parts take in the search tool's description (about 750 tokens): names first, then notes. */
const PARTS_BUDGET = 3000;

/**
 * The API's parts, the most central first: by reach (`paths` in the order of `tags`), then by their own operations,
 * then first seen. Each note is made plain: Markdown links keep their
 * text, bare addresses and markup go, and a note that only repeats the tag's name is dropped.
 */
export function apiParts(
  tags: readonly (readonly string[])[],
  notes: Readonly<Record<string, string>> = {},
  paths: readonly string[] = [],
): ApiPart[] {
  // The note of any spelling, read once: an own property only (a tag named `constructor` has none).
  const noteOf = (spellings: readonly string[]) =>
    spellings.map((tag) => (Object.hasOwn(notes, tag) ? notes[tag] : undefined)).find((note) => note !== undefined && note !== "");
  const members = tagMembers(tags).map((member) => ({ ...member, note: noteOf(member.spellings) }));
  const pathWords = paths.map((path) => new Set(wordsOf(path.replace(/\{[^}]*\}/g, " "))));
  const common = commonWords(members.flatMap(({ note }) => note ?? []));
  return members
    .map(({ spellings, places, note: written }) => {
      const tag = spellings[0] ?? "";
      const thing = thingWords(tag);
      const own = new Set(places);
      const named = (words: ReadonlySet<string>, place: number) =>
        !own.has(place) && thing.length > 0 && thing.every((word) => words.has(word));
      const reach = places.length + pathWords.filter(named).length;
      const note = plainNote(tag, written, common);
      return { tag, operations: places.length, reach, members: places, note };
    })
    .sort((a, b) => b.reach - a.reach || b.operations - a.operations);
}

/**
 * Each tag's operations, tags that differ only in case taken as one (Linode tags one operation `account`, the rest
 * `Account`): its spellings, the most used first, and the places of its operations.
 */
function tagMembers(tags: readonly (readonly string[])[]): { spellings: string[]; places: number[] }[] {
  const members = new Map<string, { uses: Map<string, number>; places: number[] }>();
  tags.forEach((each, place) => {
    for (const tag of new Set(each)) {
      const entry = members.get(tag.toLowerCase()) ?? { uses: new Map<string, number>(), places: [] };
      entry.uses.set(tag, (entry.uses.get(tag) ?? 0) + 1);
      if (entry.places.at(-1) !== place) entry.places.push(place);
      members.set(tag.toLowerCase(), entry);
    }
  });
  return [...members.values()].map(({ uses, places }) => ({
    spellings: [...uses].sort(([, a], [, b]) => b - a).map(([tag]) => tag),
    places,
  }));
}

/** Words in many of the notes (the API's own name: `GitHub Repos.`, `Jira issues.`): a note needs more than these. */
function commonWords(notes: readonly string[]): ReadonlySet<string> {
  const seen = new Map<string, number>();
  for (const note of notes) for (const word of new Set(wordsOf(note))) seen.set(word, (seen.get(word) ?? 0) + 1);
  const floor = Math.max(3, notes.length * 0.3);
  return new Set([...seen].filter(([, count]) => count >= floor).map(([word]) => word));
}

/** Words that end the name of a part's thing (`Classifications on files` names classifications). */
const PREPOSITIONS = new Set(["on", "of", "for", "in", "to", "with", "by", "from", "at"]);

/** The words naming a tag's thing, outside parentheses and before a preposition, generic ones left out. */
function thingWords(tag: string): string[] {
  const all = wordsOf(tag.replace(/\([^)]*\)/g, " "));
  // A slug (`codes-of-conduct`) names one thing in all its words.
  const end = /\s/.test(tag.trim()) ? all.findIndex((word) => PREPOSITIONS.has(word)) : -1;
  return (end < 0 ? all : all.slice(0, end)).filter((word) => !EMPTY_WORDS.has(word) && !PREPOSITIONS.has(word));
}

/** Words a note may add to its tag's name and still say nothing (`Webinar operations`). */
const EMPTY_WORDS = new Set(["operation", "endpoint", "api", "method", "resource", "call", "service", "the", "all", "for", "and"]);

/** What notes often begin with and says nothing: `This resource represents`, `Endpoints to manage`, `Interact with`. */
const EMPTY_START =
  /^(?:this (?:resource|api|endpoint|section|tag|group|service)s? (?:represents?|provides?|contains?|manages?|describes?|allows? (?:you )?to|lets? you|is used to)\s+|(?:the )?(?:api |rest )?(?:endpoints?|operations?|methods?|apis?) (?:to |for |that )?(?:manage |work with |interact with )?|interact with |use (?:this|these) (?:api|endpoints?|operations?) to )/i;

function plainNote(tag: string, note: string | undefined, common: ReadonlySet<string>): string {
  if (note === undefined) return "";
  const plain = plainLine(note)
    .replace(EMPTY_START, "")
    .replace(/^and\s+/i, "");
  const named = new Set(wordsOf(tag));
  const adds = wordsOf(plain).filter((word) => !named.has(word) && !EMPTY_WORDS.has(word) && !common.has(word));
  if (adds.length === 0) return "";
  const text = plain.charAt(0).toUpperCase() + plain.slice(1);
  if (text.length <= NOTE_LENGTH) return excerpt(text, NOTE_LENGTH);
  // Cut at a word: `…storing custom data again…` reads as a whole.
  const cut = excerpt(text, NOTE_LENGTH);
  const space = cut.lastIndexOf(" ");
  return space > 0 ? `${cut.slice(0, space)}…` : cut;
}

/** The lower-cased words of a text (camelCase and snake_case split), a final `s` dropped. */
function wordsOf(text: string): string[] {
  const split = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2").toLowerCase();
  return (split.match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => (word.length > 3 ? word.replace(/s$/, "") : word));
}

/**
 * The parts as a sentence of the search tool's description, so a model asks in the API's own words and can narrow by
 * `tag`: every part's name that fits, the most central first; then, in what room is left, the notes of the most
 * central; and how many parts it leaves out (an unknown tag's error names them all).
 */
export function partsSentence(parts: readonly ApiPart[]): string {
  if (parts.length === 0) return "";
  const head = "Its parts (pass one as tag to search only there): ";
  const names: string[] = [];
  let used = head.length;
  for (const part of parts) {
    const name = JSON.stringify(excerpt(part.tag, 60));
    if (used + name.length + 2 > PARTS_BUDGET) break;
    names.push(name);
    used += name.length + 2;
  }
  const shown = names.map((name, index) => {
    const note = parts[index]?.note ?? "";
    if (note === "" || used + note.length + 3 > PARTS_BUDGET) return name;
    used += note.length + 3;
    return `${name} (${note})`;
  });
  const more = parts.length - names.length;
  return `${head}${shown.join(", ")}${more > 0 ? `, and ${more} more (a tag not found is answered with all of them)` : ""}.`;
}
