/**
 * What PostgreSQL's text (and `jsonb`, `tsvector`) cannot hold: NUL, and a UTF-16 surrogate not in a pair, which no
 * UTF-8 encodes (a JSON document may spell one as `"\ud800"`; the memory store keeps it as it is).
 */
const UNSTORABLE = /[\0\p{Surrogate}]/gu;

/** Text as the database can hold it: each character it cannot, U+FFFD (as a UTF-8 decoder writes for a bad byte). */
export function storable(text: string): string {
  return text.replace(UNSTORABLE, "\uFFFD");
}

/** JSON for a `jsonb` column, each of its strings storable (`jsonb` refuses `\u0000` and a lone `\ud800`). */
export function jsonb(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) => (typeof item === "string" ? storable(item) : item));
}
