import { readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A word that few of WordNet's verb definitions use says what a verb means: two verbs whose commonest senses are both
 * defined with it mean alike (`match`: "be compatible, similar or consistent"; `reconcile`: "make (one thing)
 * compatible with (another)"). More definitions than this make it a common word, which ties unrelated verbs.
 */
const RARE_IN_DEFINITIONS = 6;

/** Words of four letters or more that definitions use to say how, not what (the shorter ones are never read). */
const NOT_DEFINING = new Set([
  "something",
  "someone",
  "somebody",
  "thing",
  "things",
  "person",
  "people",
  "with",
  "into",
  "from",
  "that",
  "which",
  "their",
]);

/** A verb synset of WordNet's data file: its words, and its definition's defining words. */
interface VerbSense {
  readonly words: readonly string[];
  readonly defining: readonly string[];
}

/** WordNet's verb definitions, read once: which verbs are defined alike. */
export class VerbDefinitions {
  private readonly senses = new Map<number, VerbSense>();
  /** The senses whose definitions use each rare defining word. */
  private readonly definedWith = new Map<string, number[]>();

  /** `commonest`: a one-word verb's commonest sense (its synset offset), as WordNet's index says. */
  constructor(
    folder: string,
    private readonly commonest: (verb: string) => number | undefined,
  ) {
    const uses = new Map<string, number>();
    for (const line of readFileSync(join(folder, "data.verb"), "latin1").split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const [head = "", gloss = ""] = line.split(" | ");
      const fields = head.split(" ");
      const count = Number.parseInt(fields[3] ?? "0", 16);
      const words = Array.from({ length: count }, (_, i) => (fields[4 + 2 * i] ?? "").toLowerCase());
      // The definition is the gloss before its first `;` (examples and further wording follow).
      const definition = (gloss.split(";")[0] ?? "").toLowerCase();
      const defining = [...new Set(definition.match(/[a-z]{4,}/g) ?? [])].filter((word) => !NOT_DEFINING.has(word));
      this.senses.set(Number(fields[0]), { words, defining });
      for (const word of defining) uses.set(word, (uses.get(word) ?? 0) + 1);
    }
    // Only the rare words are kept: the others tie nothing.
    for (const [offset, sense] of this.senses) {
      const rare = sense.defining.filter((word) => (uses.get(word) ?? 0) <= RARE_IN_DEFINITIONS);
      this.senses.set(offset, { words: sense.words, defining: rare });
      for (const word of rare) this.definedWith.set(word, [...(this.definedWith.get(word) ?? []), offset]);
    }
  }

  /** The one-word verbs whose commonest sense is defined with a rare word of `verb`'s commonest sense. */
  definedAlike(verb: string): string[] {
    const own = verb.includes("_") ? undefined : this.commonest(verb);
    if (own === undefined) return [];
    const alike = new Set<string>();
    for (const word of this.senses.get(own)?.defining ?? []) {
      for (const offset of this.definedWith.get(word) ?? []) {
        if (offset === own) continue;
        for (const other of this.senses.get(offset)?.words ?? []) {
          if (!other.includes("_") && this.commonest(other) === offset) alike.add(other);
        }
      }
    }
    return [...alike].sort();
  }
}
