import { distance } from "fastest-levenshtein";

/** Names longer than this are never typos of a candidate: no suggestion is computed for them. */
const MAX_SUGGESTED_LENGTH = 128;
/** Candidates longer than this are not compared (a document's names are short; this bounds the cost). */
const MAX_CANDIDATE_LENGTH = 512;

/** How far apart two names may be and still count as a typo. */
function typoLimit(a: number, b: number): number {
  return Math.max(2, Math.floor(Math.max(a, b) / 3));
}

/** The candidate closest to a misspelt name, when it is close enough to be a likely typo (cost bounded by name length). */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length > MAX_SUGGESTED_LENGTH) return undefined;
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate.length > MAX_CANDIDATE_LENGTH) continue;
    // The distance is at least the difference in length: skip what can never be within the limit.
    if (Math.abs(candidate.length - name.length) > typoLimit(name.length, candidate.length)) continue;
    const score = distance(lower, candidate.toLowerCase());
    if (score < bestScore || (score === bestScore && best !== undefined && candidate < best)) {
      best = candidate;
      bestScore = score;
    }
  }
  if (best === undefined) return undefined;
  return bestScore <= typoLimit(name.length, best.length) ? best : undefined;
}

/** The `count` candidates nearest to a name (the name's first 128 characters), nearest first. */
export function nearest(name: string, candidates: readonly string[], count = 3): string[] {
  const lower = name.slice(0, MAX_SUGGESTED_LENGTH).toLowerCase();
  return candidates
    .filter((candidate) => candidate.length <= MAX_CANDIDATE_LENGTH)
    .map((candidate) => ({ candidate, score: distance(lower, candidate.toLowerCase()) }))
    .sort((a, b) => a.score - b.score || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, count)
    .map((entry) => entry.candidate);
}

/** ` (did you mean "X"?)` when a near miss exists, else the empty string. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const match = closest(name, candidates);
  return match === undefined ? "" : ` (did you mean "${match}"?)`;
}

/** A caller's text as an error message may show it: one line, at most `max` characters. */
export function excerpt(text: string, max = 80): string {
  const line = text.slice(0, max + 1).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/gu, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
