import { excerpt } from "../base/suggest.js";

/**
 * One part of an API as the search tool names it: a tag, what its description says, how many operations it has, and
 * how many operations' paths name its thing (its own and others': `/files/{id}/comments` names Files).
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
/** The most characters the parts take in the search tool's description (about 600 tokens). */
const PARTS_BUDGET = 2400;
/** Of that, the share that carries notes; the parts past it are named only. */
const NOTES_BUDGET = 1600;

/**
 * The API's parts, the most central first: by how many operations' paths name the part's thing (`paths`, in the
 * order of `tags`), then by its own operations, then first seen. Each note is made plain: Markdown links keep their
 * text, bare addresses and markup go, and a note that only repeats the tag's name is dropped.
 */
export function apiParts(
  tags: readonly (readonly string[])[],
  notes: Readonly<Record<string, string>> = {},
  paths: readonly string[] = [],
): ApiPart[] {
  const members = new Map<string, number[]>();
  tags.forEach((each, place) => {
    for (const tag of new Set(each)) members.set(tag, [...(members.get(tag) ?? []), place]);
  });
  const pathWords = paths.map((path) => new Set(wordsOf(path.replace(/\{[^}]*\}/g, " "))));
  return [...members]
    .map(([tag, places]) => {
      const thing = thingWords(tag);
      const reach = thing.length === 0 ? 0 : pathWords.filter((named) => thing.every((word) => named.has(word))).length;
      const note = plainNote(tag, Object.hasOwn(notes, tag) ? notes[tag] : undefined);
      return { tag, operations: places.length, reach, members: places, note };
    })
    .sort((a, b) => b.reach - a.reach || b.operations - a.operations);
}

/** Words that end the name of a part's thing (`Classifications on files` names classifications). */
const PREPOSITIONS = new Set(["on", "of", "for", "in", "to", "with", "by", "from", "at"]);

/** The words naming a tag's thing, outside parentheses and before a preposition, generic ones left out. */
function thingWords(tag: string): string[] {
  const all = wordsOf(tag.replace(/\([^)]*\)/g, " "));
  const end = all.findIndex((word) => PREPOSITIONS.has(word));
  return (end < 0 ? all : all.slice(0, end)).filter((word) => !EMPTY_WORDS.has(word));
}

/** Words a note may add to its tag's name and still say nothing (`Webinar operations`). */
const EMPTY_WORDS = new Set(["operation", "endpoint", "api", "method", "resource", "call", "service", "the", "all", "for", "and"]);

function plainNote(tag: string, note: string | undefined): string {
  if (note === undefined) return "";
  const plain = note
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]{0,200}>/g, " ")
    .replace(/\bhttps?:\/\/\S+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const named = new Set(wordsOf(tag));
  const adds = wordsOf(plain).filter((word) => !named.has(word) && !EMPTY_WORDS.has(word));
  return adds.length > 0 ? excerpt(plain, NOTE_LENGTH) : "";
}

/** The lower-cased words of a text (camelCase and snake_case split), a final `s` dropped. */
function wordsOf(text: string): string[] {
  const split = text.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2").toLowerCase();
  return (split.match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => (word.length > 3 ? word.replace(/s$/, "") : word));
}

/**
 * The parts as a sentence of the search tool's description, so a model asks in the API's own words and can narrow by
 * `tag`: the largest parts with their notes, then names only, then how many more there are.
 */
export function partsSentence(parts: readonly ApiPart[]): string {
  if (parts.length === 0) return "";
  const head = "Its parts (pass one as tag to search only there): ";
  const named: string[] = [];
  let used = head.length;
  for (const part of parts) {
    const name = JSON.stringify(excerpt(part.tag, 60));
    const withNote = part.note !== "" && used < NOTES_BUDGET ? `${name} (${part.note})` : name;
    if (used + withNote.length + 2 > PARTS_BUDGET) break;
    named.push(withNote);
    used += withNote.length + 2;
  }
  const more = parts.length - named.length;
  return `${head}${named.join(", ")}${more > 0 ? `, and ${more} more` : ""}.`;
}
